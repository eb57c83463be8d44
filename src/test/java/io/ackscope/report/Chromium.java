package io.ackscope.report;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Real headless Chromium (Debian's {@code chromium}), driven over the DevTools protocol with the JDK's own
 * WebSocket client: no browser-automation library. Fails, rather than skips, when the browser is not installed.
 */
public final class Chromium implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/chromium");
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<Map<String, Object>>> pending = new ConcurrentHashMap<>();
    private final List<Consumer<Map<String, Object>>> listeners = new CopyOnWriteArrayList<>();

    private Chromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** Starts the browser with a fresh profile under {@code work}. */
    public static Chromium start(Path work) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: the report's browser tests need Debian's "
                    + "chromium (apt-get install chromium; .ci/run installs it)");
        }
        Path profile = Files.createDirectories(work.resolve("chromium-profile"));
        ProcessBuilder pb = new ProcessBuilder(BINARY.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--no-first-run", "--disable-component-update",
                "--disable-sync", "--disable-default-apps", "--disable-extensions", "--mute-audio",
                "--no-default-browser-check", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "about:blank");
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    int at = line.indexOf("DevTools listening on ");
                    if (at >= 0) {
                        url.complete(line.substring(at + "DevTools listening on ".length()).trim());
                    }
                }
                url.completeExceptionally(new IOException("chromium exited without a DevTools endpoint"));
            } catch (IOException e) {
                url.completeExceptionally(e);
            }
        }, "chromium-stderr");
        reader.setDaemon(true);
        reader.start();
        String ws;
        try {
            ws = url.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            p.destroyForcibly();
            throw new IOException("chromium did not start: " + e, e);
        }
        Chromium[] self = new Chromium[1];
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(TIMEOUT)
                .buildAsync(URI.create(ws), new WebSocket.Listener() {
                    private final StringBuilder buf = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        buf.append(data);
                        if (last) {
                            String msg = buf.toString();
                            buf.setLength(0);
                            self[0].dispatch(msg);
                        }
                        w.request(1);
                        return null;
                    }
                }).join();
        Chromium c = new Chromium(p, socket);
        self[0] = c;
        return c;
    }

    @SuppressWarnings("unchecked")
    private void dispatch(String msg) {
        Map<String, Object> m = (Map<String, Object>) MiniJson.parse(msg);
        Object id = m.get("id");
        if (id != null) {
            CompletableFuture<Map<String, Object>> f = pending.remove(((Double) id).intValue());
            if (f != null) {
                f.complete(m);
            }
        } else {
            for (Consumer<Map<String, Object>> l : listeners) {
                l.accept(m);
            }
        }
    }

    /** Sends a command (to a page session when {@code session} is not null) and returns its result. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> call(String session, String method, Map<String, Object> params) {
        int id = ids.incrementAndGet();
        Map<String, Object> msg = new LinkedHashMap<>();
        msg.put("id", id);
        msg.put("method", method);
        msg.put("params", params);
        if (session != null) {
            msg.put("sessionId", session);
        }
        CompletableFuture<Map<String, Object>> f = new CompletableFuture<>();
        pending.put(id, f);
        socket.sendText(MiniJson.write(msg), true).join();
        Map<String, Object> reply;
        try {
            reply = f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(method + ": no reply from chromium", e);
        }
        if (reply.get("error") != null) {
            throw new IllegalStateException(method + ": " + reply.get("error"));
        }
        return (Map<String, Object>) reply.get("result");
    }

    /** A new tab with Page, Runtime, Log and Network events recorded. */
    public Page newPage() {
        String target = (String) call(null, "Target.createTarget", Map.of("url", "about:blank")).get("targetId");
        String session = (String) call(null, "Target.attachToTarget", Map.of("targetId", target, "flatten", true))
                .get("sessionId");
        Page p = new Page(session);
        listeners.add(p::event);
        for (String domain : List.of("Page", "Runtime", "Log", "Network")) {
            call(session, domain + ".enable", Map.of());
        }
        return p;
    }

    /** One browser tab. */
    public final class Page {
        private final String session;
        /** URLs of every request the page made (Network.requestWillBeSent). */
        public final List<String> requests = Collections.synchronizedList(new ArrayList<>());
        /** Console errors, log errors and uncaught exceptions. */
        public final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        private volatile CompletableFuture<Void> loaded = new CompletableFuture<>();

        private Page(String session) {
            this.session = session;
        }

        @SuppressWarnings("unchecked")
        private void event(Map<String, Object> m) {
            if (!session.equals(m.get("sessionId"))) {
                return;
            }
            String method = (String) m.get("method");
            Map<String, Object> params = (Map<String, Object>) m.get("params");
            switch (method) {
                case "Page.loadEventFired" -> loaded.complete(null);
                case "Network.requestWillBeSent" ->
                        requests.add((String) ((Map<String, Object>) params.get("request")).get("url"));
                case "Runtime.exceptionThrown" -> errors.add("exception: " + params.get("exceptionDetails"));
                case "Runtime.consoleAPICalled" -> {
                    String type = (String) params.get("type");
                    if ("error".equals(type) || "assert".equals(type) || "warning".equals(type)) {
                        errors.add("console." + type + ": " + params.get("args"));
                    }
                }
                case "Log.entryAdded" -> {
                    Map<String, Object> entry = (Map<String, Object>) params.get("entry");
                    if ("error".equals(entry.get("level")) || "warning".equals(entry.get("level"))) {
                        errors.add("log " + entry.get("level") + ": " + entry.get("text") + " " + entry.get("url"));
                    }
                }
                default -> {
                }
            }
        }

        /** Loads {@code file} and waits for its load event; returns the load time in milliseconds. */
        public double load(Path file) {
            loaded = new CompletableFuture<>();
            long t = System.nanoTime();
            call(session, "Page.navigate", Map.of("url", file.toUri().toString()));
            try {
                loaded.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("page did not load: " + file, e);
            }
            return (System.nanoTime() - t) / 1e6;
        }

        /** Evaluates a JavaScript expression in the page (DevTools' own context) and returns its JSON value. */
        @SuppressWarnings("unchecked")
        public Object eval(String expression) {
            Map<String, Object> r = call(session, "Runtime.evaluate", Map.of("expression", expression,
                    "returnByValue", true));
            if (r.get("exceptionDetails") != null) {
                throw new IllegalStateException("evaluation failed: " + r.get("exceptionDetails"));
            }
            return ((Map<String, Object>) r.get("result")).get("value");
        }

        public String string(String expression) {
            return (String) eval(expression);
        }

        public double number(String expression) {
            return ((Number) eval(expression)).doubleValue();
        }

        public void viewport(int width, int height) {
            call(session, "Emulation.setDeviceMetricsOverride", Map.of("width", width, "height", height,
                    "deviceScaleFactor", 1, "mobile", width < 800));
        }

        /** Emulates a CSS media type ("print", "screen"). */
        public void media(String type) {
            call(session, "Emulation.setEmulatedMedia", Map.of("media", type));
        }

        /** Saves a PNG of the page region {@code [y, y + height)} (the whole width) to {@code file}. */
        public void screenshot(Path file, double y, double height) throws IOException {
            double width = number("document.documentElement.scrollWidth");
            Map<String, Object> r = call(session, "Page.captureScreenshot", Map.of("format", "png",
                    "captureBeyondViewport", true, "clip", Map.of("x", 0, "y", y, "width", width, "height", height,
                            "scale", 1)));
            Files.createDirectories(file.getParent());
            Files.write(file, Base64.getDecoder().decode((String) r.get("data")));
        }

        /** Prints the page to PDF (as the print style sheet lays it out) and returns its bytes. */
        public byte[] pdf() {
            Map<String, Object> r = call(session, "Page.printToPDF", Map.of("printBackground", true));
            return Base64.getDecoder().decode((String) r.get("data"));
        }
    }

    @Override
    public void close() {
        try {
            call(null, "Browser.close", Map.of());
        } catch (RuntimeException e) {
            // The browser may close the socket before it answers.
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        // Renderer and zygote processes normally exit with the browser; make sure none is left behind.
        process.descendants().forEach(ProcessHandle::destroyForcibly);
    }
}
