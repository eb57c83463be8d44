#!/usr/bin/env bash
# The ground truth of the cause labs, measured by tshark (not by ackscope): one TSV row per capture given, with a
# header line. This is how src/test/resources/lab-causes.tsv was made:
#   jobs/lib/lab-truth.sh sample-pcaps/lab-cause-*.pcap.gz sample-pcaps/nginx-nodelay-on.pcap.gz
# Columns (times in milliseconds, 0.1 ms resolution):
#   capture                 file name
#   connections             TCP streams (tcp.stream)
#   syn_retransmissions     SYNs tshark marks as retransmissions
#   synack_retransmissions  SYN/ACKs tshark marks as retransmissions
#   connect_max_ms          the longest connect: tcp.time_relative (time since the stream's first frame, its first
#                           SYN) of the stream's first frame after the SYN/ACK from the SYN's sender (the ACK that
#                           completes the handshake; tshark's initial_rtt counts from the last SYN, so it would
#                           leave out the SYN retransmissions)
#   retransmissions         data segments marked tcp.analysis.retransmission (fast ones included)
#   fast_retransmissions    of those, tcp.analysis.fast_retransmission
#   retransmissions_ge_200ms  of those, the ones whose tcp.analysis.rto (time since the original) is 200 ms or more
#   dsacks                  ACKs carrying a D-SACK block (tcp.options.sack.dsack): data that arrived twice
#   zero_windows            tcp.analysis.zero_window
#   ack_rtt_p10_ms, ack_rtt_max_ms   of tcp.analysis.ack_rtt over the capture (both directions)
#   window_full             data segments marked tcp.analysis.window_full (they fill the peer's advertised window)
#   reused_ports            SYNs marked tcp.analysis.reused_ports ("TCP port numbers reused": a 4-tuple used before)
#   rst_connections         TCP streams with at least one RST
set -euo pipefail
count() { tshark -r "$1" -Y "$2" -T fields -e frame.number 2>/dev/null | wc -l; }
ms() { awk '{ printf "%.1f\n", $1 * 1000 }'; }
printf 'capture\tconnections\tsyn_retransmissions\tsynack_retransmissions\tconnect_max_ms\tretransmissions\t'
printf 'fast_retransmissions\tretransmissions_ge_200ms\tdsacks\tzero_windows\tack_rtt_p10_ms\tack_rtt_max_ms\t'
printf 'window_full\treused_ports\trst_connections\n'
for f in "$@"; do
  streams=$(tshark -r "$f" -T fields -e tcp.stream 2>/dev/null | sort -u | grep -c . || true)
  syn=$(count "$f" 'tcp.flags.syn==1 && tcp.flags.ack==0 && tcp.analysis.retransmission')
  synack=$(count "$f" 'tcp.flags.syn==1 && tcp.flags.ack==1 && tcp.analysis.retransmission')
  connect=$(tshark -r "$f" -Y 'tcp.flags.syn==0 && tcp.analysis.initial_rtt' -T fields -e tcp.stream \
    -e tcp.time_relative 2>/dev/null | awk '!seen[$1]++ { print $2 }' | sort -g | tail -1 | ms)
  retx=$(count "$f" 'tcp.analysis.retransmission && tcp.len>0')
  fast=$(count "$f" 'tcp.analysis.fast_retransmission && tcp.len>0')
  slow=$(count "$f" 'tcp.analysis.retransmission && tcp.len>0 && tcp.analysis.rto >= 0.2')
  dsack=$(count "$f" 'tcp.options.sack.dsack')
  zero=$(count "$f" 'tcp.analysis.zero_window')
  rtts=$(tshark -r "$f" -Y tcp.analysis.ack_rtt -T fields -e tcp.analysis.ack_rtt 2>/dev/null | sort -g)
  p10=$(echo "$rtts" | awk '{ v[NR] = $1 } END { print v[int((NR - 1) * 0.1) + 1] }' | ms)
  max=$(echo "$rtts" | tail -1 | ms)
  full=$(count "$f" 'tcp.analysis.window_full')
  reused=$(count "$f" 'tcp.analysis.reused_ports')
  rst=$(tshark -r "$f" -Y 'tcp.flags.reset==1' -T fields -e tcp.stream 2>/dev/null | sort -u | grep -c . || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(basename "$f")" "$streams" "$syn" \
    "$synack" "${connect:-0.0}" "$retx" "$fast" "$slow" "$dsack" "$zero" "$p10" "$max" "$full" "$reused" "$rst"
done
