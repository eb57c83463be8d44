package io.ackscope.cli;

import io.ackscope.fields.DisplayFilter;
import io.ackscope.fields.FrameFields;
import io.ackscope.fields.HttpConversations;
import io.ackscope.fields.TsvOutput;
import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureReader;
import io.ackscope.decode.DecodeStatus;
import io.ackscope.decode.Layer;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.tcp.AnalysisSink;
import io.ackscope.tcp.FrameAnalysis;
import io.ackscope.tcp.Segment;
import io.ackscope.tcp.TcpEngine;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ackscope fields -r FILE [-e FIELD]...}: one tab-separated row per frame, with a header line, as
 * {@code tshark -n -r FILE -T fields -E header=y -E separator=/t -E occurrence=f -e FIELD...} prints it.
 *
 * <p>Without {@code -e} the fields are {@link #DEFAULT_FIELDS}: the decoded columns of the corpus's
 * {@code expected/*.tcp.tsv}, so the output can be compared with tshark's directly.
 *
 * <p>Known differences from tshark: IP fragments are not reassembled (the TCP or UDP header shows on the first
 * fragment, where tshark shows it on the last one, reassembled); timestamps with out-of-range sub-second fields are
 * printed arithmetically (tshark prints artefacts such as 10 decimals); a pcapng block that tshark counts as a
 * frame without being a packet (custom and journal blocks) gets a row with only its frame number. The {@code http.*}
 * fields follow tshark's HTTP over TCP only ({@link HttpConversations} says how), with bounds tshark does not have.
 */
@Parameters(commandNames = "fields", commandDescription = "Print one tab-separated row of fields per frame, "
        + "as tshark -T fields -E header=y -E occurrence=f prints them")
public final class FieldsCommand extends Command {

    /** The fields printed when no -e is given. */
    static final List<String> DEFAULT_FIELDS = List.of("frame.number", "frame.time_epoch", "ip.src", "ipv6.src",
            "tcp.srcport", "ip.dst", "ipv6.dst", "tcp.dstport", "tcp.flags", "tcp.seq_raw", "tcp.ack_raw",
            "tcp.len", "tcp.window_size_value");

    private static final int OUTPUT_BUFFER = 1 << 16;

    @Parameter(names = {"-r", "--read"}, required = true, description = "Capture file (pcap or pcapng, optionally "
            + "gzip/zstd/bzip2 compressed; a FIFO, /dev/stdin or - for standard input work too)")
    String file;

    @Parameter(names = {"-e", "--field"}, description = "Field to print (repeatable), in tshark's naming; "
            + "default: frame.number frame.time_epoch ip.src ipv6.src tcp.srcport ip.dst ipv6.dst tcp.dstport "
            + "tcp.flags tcp.seq_raw tcp.ack_raw tcp.len tcp.window_size_value. Run with -e list for all.")
    List<String> fields = new ArrayList<>();

    @Parameter(names = {"-Y", "--display-filter"}, description = "Print only the frames that pass this Wireshark "
            + "display filter (the fields -e knows, ip/ipv6/tcp/udp/http, ip.addr, tcp.port, tcp.flags.syn ...; "
            + "== != > < >= <=, contains \"text\", in {1, 2, 5..9}, field & mask, and or not, parentheses)")
    String displayFilter;

    @Parameter(names = "-T", description = "Output format, as tshark's -T; only 'fields' (the default) is printed")
    String format = "fields";

    @Parameter(names = "-E", splitter = WholeValue.class, description = "tshark's field print option (repeatable): header=y|n (default y), "
            + "separator=/t|/s|CHAR (default /t), quote=d|s|n (default n), occurrence=f (the only one printed)")
    List<String> printOptions = new ArrayList<>();

    @Parameter(names = "-n", description = "Accepted for tshark's command lines: ackscope never resolves names")
    boolean noResolve;

    @Parameter(names = "-c", description = "Read only the first N frames (as tshark's -c with -r, counted before -Y)")
    long count = -1;

    @Parameter(names = {"--stats"}, description = "After the rows, print to standard error how many frames "
            + "decoded and where the others stopped")
    boolean stats;

    @Parameter(names = "--strict", description = "Exit with status 3 if the capture is damaged or cut short")
    boolean strict;

    /** The zone of {@code frame.time}: the local one, as tshark's. */
    java.time.ZoneId zone = java.time.ZoneId.systemDefault();

    private final PrintStream out;
    private final PrintStream err;
    private boolean header = true;
    private byte separator = '\t';
    private byte quote;
    /** The parsed {@code -Y}, or null. */
    private DisplayFilter filter;

    public FieldsCommand() {
        this(System.out, System.err);
    }

    FieldsCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public int run() throws IOException, CommandFailure {
        if (!format.equals("fields")) {
            err.println(TerminalText.escape("ackscope fields: -T " + format + " is not supported; -T fields is "
                    + "the only output format"));
            return EXIT_USAGE;
        }
        String bad = printOptions();
        if (bad != null) {
            err.println(TerminalText.escape("ackscope fields: -E " + bad + ": expected header=y|n, separator=/t|/s|"
                    + "CHAR, quote=d|s|n or occurrence=f"));
            return EXIT_USAGE;
        }
        List<String> names = fields.isEmpty() ? DEFAULT_FIELDS : fields;
        if (names.contains("list")) {
            for (FrameFields.Field f : FrameFields.all()) {
                out.println(f.name() + "\t" + f.description());
            }
            return 0;
        }
        FrameFields.Field[] selected = new FrameFields.Field[names.size()];
        FrameFields.Pass pass = FrameFields.Pass.READ;
        for (int i = 0; i < selected.length; i++) {
            selected[i] = FrameFields.get(names.get(i));
            if (selected[i] == null) {
                err.println(TerminalText.escape("ackscope fields: unknown field '" + names.get(i)
                        + "'. Known fields: " + knownFields()));
                return EXIT_USAGE;
            }
            if (selected[i].pass().compareTo(pass) > 0) {
                pass = selected[i].pass();
            }
        }
        filter = displayFilter == null ? null : DisplayFilter.parse(displayFilter);
        if (filter != null && filter.pass().compareTo(pass) > 0) {
            pass = filter.pass();
        }
        return print(selected, pass);
    }

    /** Takes an option's value whole: {@code -E separator=,} must not be split at its comma. */
    public static final class WholeValue implements com.beust.jcommander.converters.IParameterSplitter {
        @Override
        public List<String> split(String value) {
            return List.of(value);
        }
    }

    /** Applies the -E options; returns the first one it cannot follow, or null. */
    private String printOptions() {
        for (String option : printOptions) {
            int eq = option.indexOf('=');
            String key = eq < 0 ? option : option.substring(0, eq);
            String value = eq < 0 ? "" : option.substring(eq + 1);
            switch (key) {
                case "header" -> {
                    if (!value.equals("y") && !value.equals("n")) {
                        return option;
                    }
                    header = value.equals("y");
                }
                case "separator" -> {
                    if (value.equals("/t")) {
                        separator = '\t';
                    } else if (value.equals("/s")) {
                        separator = ' ';
                    } else if (value.length() == 1 && value.charAt(0) > ' ' && value.charAt(0) < 127) {
                        separator = (byte) value.charAt(0);
                    } else {
                        return option;
                    }
                }
                case "quote" -> {
                    switch (value) {
                        case "d" -> quote = '"';
                        case "s" -> quote = '\'';
                        case "n" -> quote = 0;
                        default -> {
                            return option;
                        }
                    }
                }
                case "occurrence" -> {
                    if (!value.equals("f")) {
                        return option; // each field has one occurrence here; a, l or a number would differ
                    }
                }
                default -> {
                    return option;
                }
            }
        }
        return null;
    }

    private static String knownFields() {
        StringBuilder sb = new StringBuilder();
        for (FrameFields.Field f : FrameFields.all()) {
            sb.append(sb.length() == 0 ? "" : " ").append(f.name());
        }
        return sb.toString();
    }

    /** The header row: the fields' names. */
    private static void header(TsvOutput o, FrameFields.Field[] selected) throws IOException {
        for (int i = 0; i < selected.length; i++) {
            if (i > 0) {
                o.tab();
            }
            o.ascii(selected[i].name());
        }
        o.newline();
    }

    /** One frame's row: each selected field's cell. */
    private static void row(TsvOutput o, FrameFields.Field[] selected, FrameFields.Frame frame) throws IOException {
        for (int i = 0; i < selected.length; i++) {
            if (i > 0) {
                o.tab();
            }
            o.beginCell();
            selected[i].writer().write(frame, o);
            o.endCell();
        }
        o.newline();
    }

    /**
     * The engine that gives each frame its TCP analysis: one pass in frame order, as tshark without -2; the sink sees
     * the frame's analysis before its row is written.
     */
    private static TcpEngine analysing(FrameFields.Frame frame) {
        return new TcpEngine(new AnalysisSink() {
            @Override
            public void onFrame(Segment s, FrameAnalysis a) {
                frame.analysis = a;
            }
        });
    }

    private int print(FrameFields.Field[] selected, FrameFields.Pass pass) throws IOException, CommandFailure {
        boolean decode = pass != FrameFields.Pass.READ;
        boolean analyse = pass.compareTo(FrameFields.Pass.TCP_ANALYSIS) >= 0;
        boolean http = pass == FrameFields.Pass.HTTP;
        TsvOutput o = new TsvOutput(out, OUTPUT_BUFFER);
        o.format(separator, quote);
        if (header) {
            header(o, selected);
        }
        FrameFields.Frame frame = new FrameFields.Frame();
        frame.zone = zone;
        frame.decoder = new PacketDecoder();
        frame.http = http ? new HttpConversations() : null;
        Segment segment = new Segment();
        TcpEngine engine = analysing(frame);
        DecodeCounts counts = new DecodeCounts();
        long nextNumber = 1;
        int exit = EXIT_OK;
        CaptureReader opened;
        try {
            opened = CaptureInput.open(file);
        } catch (CaptureException e) {
            // the header is out, as before any damage found later; nothing could be read from the file
            o.flush();
            err.println(TerminalText.escape("ackscope fields: " + e.getMessage()));
            return EXIT_DAMAGED;
        }
        try (CaptureReader r = opened) {
            frame.reader = r;
            try {
                while (r.next()) {
                    if (count >= 0 && r.frameNumber() > count) {
                        // -c: the frames after the first N are not read, numbered blocks included
                        nextNumber = nonPacketRows(o, selected, nextNumber, count + 1);
                        break;
                    }
                    nextNumber = nonPacketRows(o, selected, nextNumber, r.frameNumber());
                    nextNumber = r.frameNumber() + 1;
                    if (decode) {
                        frame.decoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(),
                                r.originalLength());
                        counts.add(frame.decoder);
                    }
                    frame.arrive();
                    frame.analysis = null;
                    if (analyse && segment.fill(frame.decoder, r.data(), 0, r.frameNumber(), r.timestampNanos(),
                            r.originalLength())) {
                        engine.accept(segment);
                    }
                    if (http) {
                        frame.http.frame(frame.decoder, frame.analysis, r.data(), r.frameNumber(),
                                r.timestampNanos());
                    }
                    if (filter != null && !filter.test(frame)) {
                        frame.advance(false);
                        continue;
                    }
                    row(o, selected, frame);
                    frame.advance(true);
                }
                // pcapng blocks that tshark numbers as frames after the last packet
                long end = r.frameNumber() + 1;
                nonPacketRows(o, selected, nextNumber, count >= 0 ? Math.min(end, count + 1) : end);
                if (r.tailProblem() != null) {
                    o.flush();
                    exit = CaptureInput.cutShort(err, "fields", file, r.tailProblem(),
                            "the frames before it were printed", strict);
                }
            } catch (CaptureException e) {
                o.flush();
                exit = CaptureInput.damaged(err, "fields", e, "the frames before it were printed", strict);
            }
        }
        o.flush();
        if (stats && decode) {
            counts.print(err);
        }
        return exit;
    }

    /**
     * Rows with only a frame number for the numbers in [from, to) that were not packets; returns {@code to}. Under
     * {@code -Y} there are none: such a frame has no field a filter could test but its number.
     */
    private long nonPacketRows(TsvOutput o, FrameFields.Field[] selected, long from, long to)
            throws IOException {
        for (long n = filter != null ? to : from; n < to; n++) {
            for (int i = 0; i < selected.length; i++) {
                if (i > 0) {
                    o.tab();
                }
                if (selected[i].name().equals("frame.number")) {
                    o.decimal(n);
                }
            }
            o.newline();
        }
        return to;
    }

    /** Frames by decode outcome: OK, or status / layer / reason (reasons are constants, so keys repeat). */
    private static final class DecodeCounts {
        private static final DecodeStatus[] STATUSES = DecodeStatus.values();
        private static final Layer[] LAYERS = Layer.values();

        private long total;
        private long ok;
        private final Map<String, long[]> stopped = new LinkedHashMap<>();

        void add(PacketDecoder d) {
            total++;
            if (d.status() == DecodeStatus.OK) {
                ok++;
                return;
            }
            long[] c = stopped.get(d.stopReason());
            if (c == null) {
                c = new long[STATUSES.length * LAYERS.length];
                stopped.put(d.stopReason(), c);
            }
            c[d.status().ordinal() * LAYERS.length + d.stopLayer().ordinal()]++;
        }

        void print(PrintStream err) {
            err.println(total + (total == 1 ? " frame" : " frames") + " decoded: " + ok + " ok");
            for (Map.Entry<String, long[]> e : stopped.entrySet()) {
                long[] c = e.getValue();
                for (int i = 0; i < c.length; i++) {
                    if (c[i] > 0) {
                        err.println(c[i] + " " + STATUSES[i / LAYERS.length] + " at " + LAYERS[i % LAYERS.length]
                                + ": " + e.getKey());
                    }
                }
            }
        }
    }
}
