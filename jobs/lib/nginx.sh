# shellcheck shell=bash
# The one nginx set-up of the bench and sample scripts (source it; the Java twin is io.ackscope.lab.Nginx).
#
#   nginx_start DIR PORT ROOT [OPTION...]   writes DIR/nginx.conf and starts nginx in the foreground (as a
#                                           background job of the caller), then waits until 127.0.0.1:PORT accepts
#   nginx_stop DIR                          stops the nginx started with DIR and waits for it to exit
#
# The configuration: listen on 127.0.0.1:PORT only, serve ROOT, pid, error log and temporary files in DIR, no
# access log, `sendfile on; tcp_nopush off;` (Debian's stock nginx.conf has tcp_nopush on, which corks the response
# header until the body is queued and so hides the Nagle x delayed-ACK stall), and these options:
#   --nodelay on|off          tcp_nodelay (default on)
#   --workers N               worker_processes (default 1)
#   --connections N           worker_connections (default 1024)
#   --keepalive-timeout T     keepalive_timeout (default nginx's own, 75s)
#   --keepalive-requests N    keepalive_requests (default 1000000)
#   --default-type TYPE       default_type (default nginx's own, text/plain)
#   --user                    master process with workers as nobody:nogroup (needs root; ROOT must be readable by
#                             nobody); without it one process running as the caller (master_process off)
#   --nice N                  run nginx at this niceness (default 0)
nginx_start() {
  local dir=$1 port=$2 root=$3
  shift 3
  local nodelay=on workers=1 connections=1024 timeout="" requests=1000000 type="" user=0 niceness=0
  while [ $# -gt 0 ]; do
    case "$1" in
      --nodelay) nodelay=$2; shift 2 ;;
      --workers) workers=$2; shift 2 ;;
      --connections) connections=$2; shift 2 ;;
      --keepalive-timeout) timeout=$2; shift 2 ;;
      --keepalive-requests) requests=$2; shift 2 ;;
      --default-type) type=$2; shift 2 ;;
      --user) user=1; shift ;;
      --nice) niceness=$2; shift 2 ;;
      *) echo "nginx_start: unknown option $1" >&2; return 2 ;;
    esac
  done
  command -v nginx >/dev/null || { echo "missing: nginx (Debian's nginx-light)" >&2; return 1; }
  mkdir -p "$dir/tmp"
  {
    echo "daemon off;"
    if [ "$user" = 1 ]; then echo "user nobody nogroup;"; else echo "master_process off;"; fi
    echo "worker_processes $workers;"
    echo "pid $dir/nginx.pid;"
    echo "error_log $dir/error.log warn;"
    echo "events { worker_connections $connections; }"
    echo "http {"
    echo "    access_log off;"
    [ -n "$type" ] && echo "    default_type $type;"
    echo "    client_body_temp_path $dir/tmp/body; proxy_temp_path $dir/tmp/proxy; fastcgi_temp_path $dir/tmp/fastcgi;"
    echo "    uwsgi_temp_path $dir/tmp/uwsgi; scgi_temp_path $dir/tmp/scgi;"
    echo "    sendfile on;"
    echo "    tcp_nopush off;"
    echo "    tcp_nodelay $nodelay;"
    [ -n "$timeout" ] && echo "    keepalive_timeout $timeout;"
    echo "    keepalive_requests $requests;"
    echo "    server { listen 127.0.0.1:$port; root $root; }"
    echo "}"
  } > "$dir/nginx.conf"
  rm -f "$dir/nginx.pid"
  nice -n "$niceness" nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" > "$dir/stdout.log" 2>&1 &
  local pid=$!
  echo "$pid" > "$dir/nginx.job"
  for _ in $(seq 100); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "nginx ($dir) exited:" >&2
      cat "$dir/error.log" "$dir/stdout.log" >&2 2>/dev/null
      return 1
    fi
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "nginx ($dir) does not listen on 127.0.0.1:$port after 10 s" >&2
  return 1
}

nginx_stop() {
  local dir=$1 pid
  [ -s "$dir/nginx.job" ] || return 0
  pid=$(cat "$dir/nginx.job")
  rm -f "$dir/nginx.job"
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
}
