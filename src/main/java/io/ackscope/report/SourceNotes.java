package io.ackscope.report;

import io.ackscope.tables.TableFiles;
import io.ackscope.tables.CaptureFilesTable;
import io.ackscope.tables.Column;
import io.ackscope.tables.EngineTables;
import io.ackscope.tables.FindingsTable;
import io.ackscope.tables.SourcesTable;
import io.ackscope.tables.TableReader;
import io.ackscope.tcp.Addresses;
import io.ackscope.tcp.Cause;
import io.ackscope.tcp.CauseRanking;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per capture source: its verdict (the costliest cause of its {@code findings} that is a verdict, by the rule of
 * {@link CauseRanking}), and whether its files follow on from each other as one capture point's would. They do not
 * when, over two or more files:
 * <ul>
 *   <li>the gaps are large: at least half of the boundaries between its files are gaps ({@code sources.gaps}) and the
 *       gaps add up to more than the files' own durations (a rotated archive missing a file has one gap about one
 *       file long);</li>
 *   <li>the endpoints are disjoint: no two consecutive files with connections share a host address (read only for a
 *       source with a gap, from {@code connections}' first file);</li>
 *   <li>or the link or capture metadata differ between consecutive files (link types, pcapng capture hardware or
 *       OS).</li>
 * </ul>
 * Such files were probably separate captures that one directory merged into one source: {@code --source-by file}
 * gives each file its own. Every text from the tables is untrusted (escape it where shown).
 */
final class SourceNotes {
    private static final Column HARDWARE = CaptureFilesTable.TABLE.column("capture_hardware");
    private static final Column OS = CaptureFilesTable.TABLE.column("capture_os");
    private static final Column DURATION = CaptureFilesTable.TABLE.column("duration_us");

    /** One file of a source, as far as these checks need it. */
    private record File(int index, long[] linkTypes, String hardware, String os, long durationUs) {
    }

    private final Map<String, String> notFollowing = new HashMap<>();
    private final Map<String, String> verdicts = new HashMap<>();
    private boolean findings;

    private SourceNotes() {
    }

    /** Why source {@code name}'s files do not follow on from each other, or null when they do. */
    String notFollowing(String name) {
        return notFollowing.get(name);
    }

    /** Source {@code name}'s verdict in words, or null when the output has no findings table. */
    String verdict(String name) {
        return verdicts.getOrDefault(name, findings ? "no cause found" : null);
    }

    static SourceNotes read(TableFiles dir) throws IOException {
        SourceNotes n = new SourceNotes();
        if (!TableReader.exists(dir, Tables.SOURCES) || !TableReader.exists(dir, Tables.CAPTURE_FILES)) {
            return n;
        }
        Map<String, List<File>> files = new TreeMap<>();
        TableReader.scan(dir, Tables.CAPTURE_FILES, List.of(CaptureFilesTable.SOURCE, CaptureFilesTable.FILE_INDEX,
                CaptureFilesTable.LINK_TYPES), List.of(HARDWARE, OS, DURATION), b -> {
            String[] source = b.strings(CaptureFilesTable.SOURCE);
            TableReader.LongColumn index = b.longs(CaptureFilesTable.FILE_INDEX);
            long[][] links = b.longLists(CaptureFilesTable.LINK_TYPES);
            String[] hw = b.has(HARDWARE) ? b.strings(HARDWARE) : new String[b.rows];
            String[] os = b.has(OS) ? b.strings(OS) : new String[b.rows];
            TableReader.LongColumn duration = b.has(DURATION) ? b.longs(DURATION) : null;
            for (int i = 0; i < b.rows; i++) {
                long d = duration != null && duration.present[i] ? duration.values[i] : 0;
                files.computeIfAbsent(source[i], k -> new ArrayList<>()).add(new File((int) index.values[i],
                        links[i] == null ? new long[0] : links[i], hw[i], os[i], d));
            }
        });
        files.values().forEach(l -> l.sort((x, y) -> Integer.compare(x.index, y.index)));
        Map<String, long[]> gaps = new HashMap<>();     // source -> {gaps, total gap µs}
        TableReader.scan(dir, Tables.SOURCES, List.of(SourcesTable.SOURCE, SourcesTable.GAPS, SourcesTable.GAP_US),
                b -> {
                    String[] name = b.strings(SourcesTable.SOURCE);
                    TableReader.LongColumn g = b.longs(SourcesTable.GAPS);
                    long[][] us = b.longLists(SourcesTable.GAP_US);
                    for (int i = 0; i < b.rows; i++) {
                        gaps.put(name[i], new long[] {g.values[i], us[i] == null ? 0 : Arrays.stream(us[i]).sum()});
                    }
                });
        Set<String> withGaps = new HashSet<>();
        gaps.forEach((s, g) -> {
            if (g[0] > 0 && files.getOrDefault(s, List.of()).size() > 1) {
                withGaps.add(s);
            }
        });
        Map<String, Map<Integer, Set<String>>> hosts = hosts(dir, withGaps);
        files.forEach((s, l) -> {
            String why = why(l, gaps.getOrDefault(s, new long[2]), hosts.get(s));
            if (why != null) {
                n.notFollowing.put(s, why);
            }
        });
        n.readVerdicts(dir);
        return n;
    }

    /** The reasons, joined, or null when the files follow on. */
    private static String why(List<File> l, long[] gaps, Map<Integer, Set<String>> hosts) {
        if (l.size() < 2) {
            return null;
        }
        List<String> reasons = new ArrayList<>();
        int boundaries = l.size() - 1;
        long captured = l.stream().mapToLong(File::durationUs).sum();
        if (gaps[0] * 2 >= boundaries && gaps[1] > captured) {
            reasons.add(gaps[0] + " of " + boundaries + " boundaries between its files are gaps, "
                    + Format.duration(gaps[1]) + " in all against " + Format.duration(captured) + " of capture");
        }
        if (hosts != null) {
            int pairs = 0, disjoint = 0;
            for (int i = 1; i < l.size(); i++) {
                Set<String> a = hosts.get(l.get(i - 1).index), b = hosts.get(l.get(i).index);
                if (a != null && b != null) {
                    pairs++;
                    if (a.stream().noneMatch(b::contains)) {
                        disjoint++;
                    }
                }
            }
            if (pairs > 0 && disjoint == pairs) {
                reasons.add("consecutive files share no host address");
            }
        }
        for (int i = 1; i < l.size(); i++) {
            File a = l.get(i - 1), b = l.get(i);
            String what = !Arrays.equals(a.linkTypes, b.linkTypes) ? "link types"
                    : differ(a.hardware, b.hardware) || differ(a.os, b.os) ? "capture hardware or OS" : null;
            if (what != null) {
                reasons.add("files " + a.index + " and " + b.index + " differ in " + what);
                break;
            }
        }
        return reasons.isEmpty() ? null : String.join("; ", reasons);
    }

    private static boolean differ(String a, String b) {
        return a != null && b != null && !Objects.equals(a, b);
    }

    /** Per source of {@code sources}, per file index of a connection's first frame: its hosts' addresses. */
    private static Map<String, Map<Integer, Set<String>>> hosts(TableFiles dir, Set<String> sources) throws IOException {
        Map<String, Map<Integer, Set<String>>> hosts = new HashMap<>();
        if (sources.isEmpty() || !TableReader.exists(dir, Tables.CONNECTIONS)) {
            return hosts;
        }
        TableReader.scan(dir, Tables.CONNECTIONS, List.of(EngineTables.Connections.FIRST_FILE_INDEX,
                EngineTables.Connections.CLIENT_IP, EngineTables.Connections.SERVER_IP), Tables.SOURCE, b -> {
            String[] source = b.has(Tables.SOURCE.get(0)) ? b.strings(Tables.SOURCE.get(0)) : new String[b.rows];
            TableReader.LongColumn file = b.longs(EngineTables.Connections.FIRST_FILE_INDEX);
            String[] client = b.strings(EngineTables.Connections.CLIENT_IP);
            String[] server = b.strings(EngineTables.Connections.SERVER_IP);
            for (int i = 0; i < b.rows; i++) {
                if (source[i] != null && sources.contains(source[i])) {
                    Set<String> h = hosts.computeIfAbsent(source[i], k -> new HashMap<>())
                            .computeIfAbsent((int) file.values[i], k -> new HashSet<>());
                    h.add(client[i]);
                    h.add(server[i]);
                }
            }
        });
        return hosts;
    }

    /** Per source: the costliest cause that is a verdict, with its endpoint and share, and what the causes explain. */
    private void readVerdicts(TableFiles dir) throws IOException {
        if (!TableReader.exists(dir, Tables.FINDINGS)) {
            return;
        }
        findings = true;
        Map<String, Object[]> top = new HashMap<>();     // source -> {cause, server, share, lost, events}
        Set<String> seen = new HashSet<>();
        TableReader.scan(dir, Tables.FINDINGS, List.of(FindingsTable.SOURCE, FindingsTable.SERVER_IP,
                FindingsTable.SERVER_PORT, FindingsTable.CAUSE, FindingsTable.EVENTS, FindingsTable.TIME_LOST_US,
                FindingsTable.SHARE), List.of(FindingsTable.EXPLAINED_SHARE), b -> {
            String[] source = b.strings(FindingsTable.SOURCE), ip = b.strings(FindingsTable.SERVER_IP),
                    cause = b.strings(FindingsTable.CAUSE);
            TableReader.LongColumn port = b.longs(FindingsTable.SERVER_PORT), events = b.longs(FindingsTable.EVENTS),
                    lost = b.longs(FindingsTable.TIME_LOST_US);
            double[] share = b.doubles(FindingsTable.SHARE).exact;
            double[] explained = b.has(FindingsTable.EXPLAINED_SHARE)
                    ? b.doubles(FindingsTable.EXPLAINED_SHARE).exact : null;
            for (int i = 0; i < b.rows; i++) {
                seen.add(source[i]);
                if (!CauseRanking.isVerdict(share[i])) {
                    continue;
                }
                Object[] t = top.get(source[i]);
                if (t == null || CauseRanking.costOrder(lost.values[i], events.values[i], ordinal(cause[i]),
                        (Long) t[3], (Long) t[4], ordinal((String) t[0])) < 0) {
                    top.put(source[i], new Object[] {cause[i], Addresses.endpointText(ip[i], (int) port.values[i]),
                            share[i], lost.values[i], events.values[i],
                            explained == null ? Double.NaN : explained[i]});
                }
            }
        });
        for (String s : seen) {
            Object[] t = top.get(s);
            verdicts.put(s, t == null ? "no cause found" : t[0] + " at " + t[1] + ", " + Format.percent((Double) t[2])
                    + " of its response time" + (Double.isNaN((Double) t[5]) ? ""
                    : "; causes found there explain " + Format.percent((Double) t[5]) + ", "
                    + Format.percent(1 - (Double) t[5]) + " unattributed"));
        }
    }

    private static int ordinal(String cause) {
        try {
            return Cause.valueOf(cause).ordinal();
        } catch (IllegalArgumentException | NullPointerException e) {
            return -1;
        }
    }
}
