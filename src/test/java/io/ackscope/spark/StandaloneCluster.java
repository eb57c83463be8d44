package io.ackscope.spark;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real Spark standalone cluster on loopback for tests: one Master and N Workers, each a separate JVM started
 * from spark-core's own classes, with a throwaway SPARK_HOME whose {@code jars/} holds the Spark jars of the test
 * class path (what executors are launched with) but none of ackscope's classes or own dependencies, so a job must
 * bring them in its application jar, as on a real cluster.
 */
final class StandaloneCluster implements AutoCloseable {
    /** Jars of ackscope's own dependencies (in the cluster jar), and test-only jars: not part of "Spark". */
    private static final List<String> NOT_SPARK = List.of("jcommander-", "HdrHistogram-", "t-digest-", "pcap4j-",
            "jna-", "parquet-avro-", "parquet-variant-", "junit-", "opentest4j-", "apiguardian-", "surefire",
            "failsafe");

    /** The JVM options Spark's launcher gives its processes on Java 17. */
    static final List<String> MODULE_OPTIONS;

    static {
        List<String> o = new ArrayList<>();
        for (String m : List.of("java.lang", "java.lang.invoke", "java.lang.reflect", "java.io", "java.net", "java.nio",
                "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "jdk.internal.ref", "sun.nio.ch",
                "sun.nio.cs", "sun.security.action", "sun.util.calendar")) {
            o.add("--add-opens=java.base/" + m + "=ALL-UNNAMED");
        }
        o.add("--add-exports=java.base/sun.nio.ch=ALL-UNNAMED");
        o.add("-Dio.netty.tryReflectionSetAccessible=true");
        MODULE_OPTIONS = List.copyOf(o);
    }

    private final Path dir;
    private final Path sparkHome;
    private final String classPath;
    private final List<Process> processes = new ArrayList<>();
    final int masterPort;
    final int masterWebPort;

    private StandaloneCluster(Path dir, Path sparkHome, String classPath, int masterPort, int masterWebPort) {
        this.dir = dir;
        this.sparkHome = sparkHome;
        this.classPath = classPath;
        this.masterPort = masterPort;
        this.masterWebPort = masterWebPort;
    }

    String masterUrl() {
        return "spark://127.0.0.1:" + masterPort;
    }

    /** Starts a master and {@code workers} workers of one core and {@code workerMemory} each; waits until all are up. */
    static StandaloneCluster start(Path dir, int workers, String workerMemory) throws IOException,
            InterruptedException {
        List<String> spark = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            if (e.endsWith(".jar") && NOT_SPARK.stream().noneMatch(name::startsWith)) {
                spark.add(e);
            }
        }
        Path home = Files.createDirectories(dir.resolve("spark-home"));
        Files.writeString(home.resolve("RELEASE"), "Spark for ackscope tests (jars from the test class path)\n");
        Path jars = Files.createDirectories(home.resolve("jars"));
        for (String j : spark) {
            Files.createSymbolicLink(jars.resolve(Path.of(j).getFileName()), Path.of(j));
        }
        Path conf = Files.createDirectories(home.resolve("conf"));
        Files.writeString(conf.resolve("log4j2.properties"), """
                rootLogger.level = warn
                rootLogger.appenderRef.stderr.ref = STDERR
                appender.stderr.type = Console
                appender.stderr.name = STDERR
                appender.stderr.target = SYSTEM_ERR
                appender.stderr.layout.type = PatternLayout
                appender.stderr.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n
                """);
        StandaloneCluster c = new StandaloneCluster(dir, home, String.join(File.pathSeparator, spark), freePort(),
                freePort());
        try {
            c.launch("master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                    Integer.toString(c.masterPort), "--webui-port", Integer.toString(c.masterWebPort));
            waitForPort(c.masterPort, 120);
            for (int i = 0; i < workers; i++) {
                Path work = Files.createDirectories(dir.resolve("worker-" + i));
                c.launch("worker-" + i, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores",
                        "1", "--memory", workerMemory, "--webui-port", Integer.toString(freePort()), "--work-dir",
                        work.toString(), c.masterUrl());
            }
            c.waitForWorkers(workers, 180);
            return c;
        } catch (IOException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private Process launch(String name, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx256m", "-cp", classPath));
        cmd.addAll(MODULE_OPTIONS);
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        Process p = builder(cmd, dir.resolve(name + ".log")).start();
        processes.add(p);
        return p;
    }

    /** A process builder with the cluster's environment, output to {@code log}. */
    ProcessBuilder builder(List<String> cmd, Path log) {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        Map<String, String> env = pb.environment();
        env.put("SPARK_HOME", sparkHome.toString());
        env.put("SPARK_LOCAL_IP", "127.0.0.1");
        env.put("SPARK_SCALA_VERSION", "2.13");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.remove("SPARK_CONF_DIR");
        return pb;
    }

    /**
     * Runs {@code SparkSubmit} in its own JVM with Spark's jars only (plus {@code appJar}), like
     * {@code spark-submit} on an edge node; returns its exit code.
     */
    int submit(Path log, List<String> submitArgs, long timeoutSeconds) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(javaBin(), "-Xmx512m", "-cp", classPath));
        cmd.addAll(MODULE_OPTIONS);
        cmd.add("org.apache.spark.deploy.SparkSubmit");
        cmd.addAll(submitArgs);
        Process p = builder(cmd, log).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            destroy(p);
            throw new IllegalStateException("spark-submit did not finish in " + timeoutSeconds + " s; see " + log);
        }
        return p.exitValue();
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private void waitForWorkers(int n, int seconds) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + masterWebPort + "/json/")).build();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                last = http.send(req, HttpResponse.BodyHandlers.ofString()).body();
                if (last.replace(" ", "").contains("\"aliveworkers\":" + n)) {
                    return;
                }
            } catch (IOException e) {
                last = e.toString();
            }
            for (Process p : processes) {
                if (!p.isAlive()) {
                    throw new IllegalStateException("a cluster process exited; see the logs in " + dir);
                }
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(n + " workers did not register in " + seconds + " s: " + last);
    }

    private static void waitForPort(int port, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException e) {
                Thread.sleep(300);
            }
        }
        throw new IllegalStateException("nothing listens on 127.0.0.1:" + port + " after " + seconds + " s");
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void destroy(Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroy);
        p.destroy();
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Stops the workers (and the executors they started), then the master. */
    @Override
    public void close() throws InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) {
            destroy(processes.get(i));
        }
        processes.clear();
    }
}
