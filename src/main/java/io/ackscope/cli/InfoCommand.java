package io.ackscope.cli;

import com.beust.jcommander.Parameter;
import com.beust.jcommander.Parameters;
import io.ackscope.capture.CaptureException;
import io.ackscope.capture.CaptureFormat;
import io.ackscope.capture.CaptureInfo;
import io.ackscope.capture.CaptureReader;
import io.ackscope.capture.LinkTypes;
import io.ackscope.capture.TimestampResolution;
import io.ackscope.decode.DecodeStatus;
import io.ackscope.decode.PacketDecoder;
import io.ackscope.report.ReportJson;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * {@code ackscope info FILE...}: a capinfos-like summary of each capture (format, byte order, resolution, link types,
 * interfaces, packets, time span, truncation, decode status) and where and why reading stopped if the file is
 * damaged. Goes on with the next file after a damaged or unreadable one. Exit code: 1 if a file could not be opened
 * (missing, a directory, unreadable), else 3 if one is not a capture at all, or (under {@code --strict}) damaged or
 * cut short, else 0; each problem is also one line on standard error naming the file and byte offset.
 */
@Parameters(commandNames = "info", commandDescription = "Summarise capture files (format, interfaces, packets, "
        + "time span, decode status, damage)")
public final class InfoCommand extends Command {

    @Parameter(description = "FILE... (a FIFO, /dev/stdin or - for standard input work too)", required = true)
    List<String> files = new ArrayList<>();

    @Parameter(names = "--no-decode", description = "Skip decoding (no per-status packet counts; faster)")
    boolean noDecode;

    @Parameter(names = "--max-record-length", description = "Largest captured length accepted for one record",
            validateWith = OptionRange.Positive.class)
    int maxRecordLength = CaptureReader.DEFAULT_MAX_RECORD_LENGTH;

    @Parameter(names = "--strict", description = "Exit with status 3 if a capture is damaged or cut short")
    boolean strict;

    @Parameter(names = "--json", description = "Print one JSON array with an object per file (every interface "
            + "listed, times as epoch nanoseconds and ISO-8601) instead of the text")
    boolean json;

    @Parameter(names = "-T", description = "Output form: text or json (as --json)", validateWith = Form.class)
    String form = "text";

    /** {@code -T}: text or json. */
    public static final class Form implements com.beust.jcommander.IParameterValidator {
        @Override
        public void validate(String name, String value) {
            if (!value.equals("text") && !value.equals("json")) {
                throw new com.beust.jcommander.ParameterException(name + " must be text or json: " + value);
            }
        }
    }

    /** Interfaces listed one per line (section/id); the rest are counted. */
    static final int MAX_LISTED_INTERFACES = 32;

    private static final DateTimeFormatter ISO_NANOS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

    @Override
    public int run() {
        return run(System.out, System.err);
    }

    /**
     * Prints one summary per file to {@code out} (text, or one JSON array with {@code --json}), problems also to
     * {@code err}; returns the exit code.
     */
    int run(PrintStream out, PrintStream err) {
        json |= form.equals("json");
        int exit = EXIT_OK;
        List<Object> json = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            Examined x = examine(files.get(i), err);
            if (this.json) {
                json.add(InfoJson.of(x));
            } else {
                if (i > 0) {
                    out.println();
                }
                printText(out, x);
            }
            // a file that could not be opened outranks damage: 1 beats 3 beats 0
            exit = exit == EXIT_FAILURE || x.exit() == EXIT_FAILURE ? EXIT_FAILURE : Math.max(exit, x.exit());
        }
        if (this.json) {
            out.print(ReportJson.of(json));
        }
        out.flush();
        return exit;
    }

    /**
     * What reading one file found. {@code size} is the file's size (-1 for a stream, null when it could not be
     * told), {@code summary} null when the file could not be opened, {@code end} how reading ended.
     */
    record Examined(String file, Long size, CaptureSummary summary, End end, long offset, String problem,
                    int exit) {
    }

    /** How reading a file ended. */
    enum End { CLEAN, CUT_SHORT, DAMAGED, NOT_A_CAPTURE, READ_ERROR, UNREADABLE }

    /** Reads one file; each problem is also one line on {@code err}. */
    private Examined examine(String file, PrintStream err) {
        Long size = null;
        if (!file.equals(CaptureInput.STDIN)) {
            Path path = Paths.get(file);
            try {
                if (Files.isRegularFile(path)) {
                    size = Files.size(path);
                } else if (Files.exists(path) && !Files.isDirectory(path)) {
                    size = -1L;
                }
            } catch (IOException e) {
                // the open below reports it
            }
        }
        CaptureReader reader;
        try {
            reader = CaptureInput.open(file, maxRecordLength);
        } catch (CommandFailure e) {
            return failed(err, file, size, null, End.UNREADABLE, -1, e.reason(), e.exitCode());
        } catch (CaptureException e) {
            err.println(TerminalText.escape("ackscope info: " + CaptureInput.name(file) + ": byte " + e.offset()
                    + ": " + e.reason()));
            return new Examined(file, size, null, End.NOT_A_CAPTURE, e.offset(), e.reason(), EXIT_DAMAGED);
        } catch (IOException e) {
            return failed(err, file, size, null, End.UNREADABLE, -1, Main.describe(e), EXIT_FAILURE);
        }
        CaptureSummary s = new CaptureSummary();
        try (reader) {
            s.read(reader, noDecode ? null : new PacketDecoder());
        } catch (IOException e) {
            return failed(err, file, size, s.withInfo(reader), End.READ_ERROR, -1,
                    "read error after " + s.packets + " packets: " + Main.describe(e), EXIT_FAILURE);
        }
        String after = "after " + s.packets + " packets";
        if (s.error != null) {
            int exit = CaptureInput.damaged(err, "info", s.error, after, strict);
            return new Examined(file, size, s, End.DAMAGED, s.error.offset(),
                    s.error.reason() + " (" + after + ")", exit);
        }
        if (s.tail != null) {
            int exit = CaptureInput.cutShort(err, "info", file, s.tail, after, strict);
            return new Examined(file, size, s, End.CUT_SHORT, s.tail.offset(), s.tail.reason(), exit);
        }
        return new Examined(file, size, s, End.CLEAN, s.bytesRead, null, EXIT_OK);
    }

    private static Examined failed(PrintStream err, String file, Long size, CaptureSummary s, End end,
                                   long offset, String what, int exit) {
        err.println(TerminalText.escape("ackscope info: " + CaptureInput.name(file) + ": " + what));
        return new Examined(file, size, s, end, offset, what, exit);
    }

    /** The capinfos-like text form of one file. */
    private void printText(PrintStream out, Examined x) {
        row(out, "File", CaptureInput.name(x.file()));
        if (x.size() != null) {
            row(out, "File size", x.size() >= 0 ? x.size() + " bytes" : "- (not a regular file: read as a stream)");
        }
        if (x.summary() != null) {
            print(out, x.summary().info, x.summary());
        }
        switch (x.end()) {
            case UNREADABLE, READ_ERROR -> row(out, "Error", x.problem());
            case NOT_A_CAPTURE -> row(out, "Error", "byte " + x.offset() + ": " + x.problem());
            case DAMAGED -> row(out, "Error", "byte " + x.offset() + ": " + x.problem());
            case CUT_SHORT -> row(out, "Cut short", "byte " + x.offset() + ": " + x.problem());
            case CLEAN -> row(out, "End", "clean, " + x.offset() + " bytes read");
        }
    }

    private void print(PrintStream out, CaptureInfo info, CaptureSummary s) {
        row(out, "Format", format(info));
        row(out, "Compression", info.compression().label());
        row(out, "Byte order", info.byteOrder());
        row(out, "Resolution", join(info.resolutions()));
        StringJoiner lt = new StringJoiner(", ");
        for (int t : info.linkTypes()) {
            lt.add(LinkTypes.describe(t));
        }
        row(out, "Link types", lt.toString());
        if (info.format() == CaptureFormat.PCAP) {
            row(out, "Snap length", Long.toString(info.pcapHeader().snapLength()));
        } else {
            row(out, "Sections", Long.toString(info.sectionCount()));
            for (CaptureInfo.Section sec : info.sections()) {
                String extra = describeSection(sec);
                if (!extra.isEmpty()) {
                    row(out, "  section " + sec.index(), extra);
                }
            }
            row(out, "Interfaces", Long.toString(info.interfaceCount()));
            List<CaptureInfo.Interface> shown = info.interfaces()
                    .subList(0, Math.min(MAX_LISTED_INTERFACES, info.interfaces().size()));
            for (CaptureInfo.Interface i : shown) {
                row(out, "  " + i.section() + "/" + i.id(), describeInterface(i));
            }
            if (info.interfaceCount() > shown.size()) {
                row(out, "  ...", (info.interfaceCount() - shown.size()) + " more not listed");
            }
        }
        row(out, "Packets", Long.toString(s.packets));
        if (info.nonPacketRecords() > 0) {
            row(out, "Non-packet records", info.nonPacketRecords() + " (custom blocks; tshark numbers them as frames)");
        }
        if (s.decoded) {
            StringJoiner st = new StringJoiner(", ");
            for (DecodeStatus d : DecodeStatus.values()) {
                st.add(d + " " + s.byStatus[d.ordinal()]);
            }
            row(out, "Decode status", st.toString());
            s.stopReasons.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .limit(12)
                    .forEach(e -> row(out, "  " + e.getValue(), e.getKey()));
        }
        row(out, "Truncated records", s.truncated + " (captured length < original length)");
        if (s.oversized > 0) {
            row(out, "Oversized records", s.oversized + " (captured length > original length, kept as they are)");
        }
        row(out, "Captured bytes", Long.toString(s.capturedBytes));
        row(out, "Original bytes", Long.toString(s.originalBytes));
        if (s.earliest <= s.latest) {
            row(out, "First packet", iso(s.earliest) + " (earliest)");
            row(out, "Last packet", iso(s.latest) + " (latest)");
            row(out, "Duration", seconds(s.latest - s.earliest) + " s");
            if (s.outOfOrder > 0) {
                row(out, "Out of order", s.outOfOrder + " records earlier than the one before");
            }
        }
        if (s.untimestamped > 0) {
            row(out, "No timestamp", s.untimestamped + " (Simple Packet Blocks)");
        }
        if (info.commentCount() > 0) {
            row(out, "Comments", Long.toString(info.commentCount()));
            for (String c : info.comments()) {
                row(out, "", "\"" + c + "\"");
            }
        }
        if (!info.blockCounts().isEmpty()) {
            StringJoiner b = new StringJoiner(", ");
            for (String k : List.of("SHB", "IDB", "EPB", "SPB", "PB", "NRB", "ISB", "DSB", "CB", "journal",
                    "unknown")) {
                Long n = info.blockCounts().get(k);
                if (n != null) {
                    b.add(k + " " + n);
                }
            }
            row(out, "Blocks", b.toString());
        }
    }

    private static String format(CaptureInfo info) {
        if (info.format() == CaptureFormat.PCAP) {
            var h = info.pcapHeader();
            return "pcap " + h.versionMajor() + "." + h.versionMinor()
                    + (h.recordHeaderLength() == 24 ? " (modified, 24-byte record headers)" : "");
        }
        StringJoiner v = new StringJoiner(", ");
        for (CaptureInfo.Section s : info.sections()) {
            String ver = s.versionMajor() + "." + s.versionMinor();
            if (!v.toString().contains(ver)) {
                v.add(ver);
            }
        }
        return "pcapng " + v;
    }

    private static String describeSection(CaptureInfo.Section s) {
        StringJoiner j = new StringJoiner(", ");
        j.add(s.bigEndian() ? "big-endian" : "little-endian");
        if (s.hardware() != null) {
            j.add("hardware \"" + s.hardware() + "\"");
        }
        if (s.os() != null) {
            j.add("os \"" + s.os() + "\"");
        }
        if (s.application() != null) {
            j.add("application \"" + s.application() + "\"");
        }
        return j.toString();
    }

    private static String describeInterface(CaptureInfo.Interface i) {
        StringJoiner j = new StringJoiner(", ");
        j.add(LinkTypes.describe(i.linkType()));
        j.add("snap length " + i.snapLength());
        j.add("resolution " + i.resolution());
        if (i.timestampOffsetSeconds() != 0) {
            j.add("offset " + i.timestampOffsetSeconds() + " s");
        }
        if (i.fcsLength() >= 0) {
            j.add("FCS " + i.fcsLength() + " bytes");
        }
        if (i.name() != null) {
            j.add("name \"" + i.name() + "\"");
        }
        if (i.description() != null) {
            j.add("description \"" + i.description() + "\"");
        }
        return j.toString();
    }

    private static String join(List<TimestampResolution> list) {
        StringJoiner j = new StringJoiner(", ");
        for (TimestampResolution r : list) {
            j.add(r.toString() + " s");
        }
        return j.toString();
    }

    /** ISO-8601 UTC with nine fraction digits. */
    static String iso(long nanos) {
        return ISO_NANOS.format(Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                Math.floorMod(nanos, 1_000_000_000L)));
    }

    private static String seconds(long nanos) {
        return String.format("%d.%09d", nanos / 1_000_000_000L, nanos % 1_000_000_000L);
    }

    private static void row(PrintStream out, String label, String value) {
        out.printf("%-20s %s%n", label.isEmpty() ? "" : label + ":", TerminalText.escape(value));
    }
}
