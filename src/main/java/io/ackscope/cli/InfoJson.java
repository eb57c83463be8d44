package io.ackscope.cli;

import io.ackscope.capture.CaptureFormat;
import io.ackscope.capture.CaptureInfo;
import io.ackscope.capture.LinkTypes;
import io.ackscope.capture.TimestampResolution;
import io.ackscope.decode.DecodeStatus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ackscope info --json}: one file's summary as a JSON object with stable snake_case keys, for scripts.
 * Counts are numbers, times are epoch nanoseconds with an ISO-8601 twin, every interface and section is listed (the
 * text form lists 32), and how reading ended is one of {@link InfoCommand.End}'s names in lower case with the byte
 * offset. Keys whose value is unknown (no packets, so no first time) are left out rather than set to null.
 */
final class InfoJson {

    private InfoJson() {
    }

    static Map<String, Object> of(InfoCommand.Examined x) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", CaptureInput.name(x.file()));
        if (x.size() != null) {
            m.put("file_size", x.size() >= 0 ? x.size() : null);
            m.put("stream", x.size() < 0);
        }
        CaptureSummary s = x.summary();
        if (s != null && s.info != null) {
            format(m, s.info);
            counts(m, s);
        }
        Map<String, Object> end = new LinkedHashMap<>();
        end.put("state", x.end().name().toLowerCase(Locale.ROOT));
        if (x.offset() >= 0) {
            end.put(x.end() == InfoCommand.End.CLEAN ? "bytes_read" : "offset", x.offset());
        }
        if (x.problem() != null) {
            end.put("reason", x.problem());
        }
        m.put("end", end);
        m.put("exit", x.exit());
        return m;
    }

    private static void format(Map<String, Object> m, CaptureInfo info) {
        m.put("format", info.format() == CaptureFormat.PCAP ? "pcap" : "pcapng");
        m.put("compression", info.compression().label());
        m.put("byte_order", info.byteOrder());
        List<Object> res = new ArrayList<>();
        for (TimestampResolution r : info.resolutions()) {
            res.add(r.toString());
        }
        m.put("resolutions", res);
        List<Object> links = new ArrayList<>();
        for (int t : info.linkTypes()) {
            Map<String, Object> link = new LinkedHashMap<>();
            link.put("linktype", t);
            link.put("name", LinkTypes.describe(t));
            links.add(link);
        }
        m.put("link_types", links);
        if (info.format() == CaptureFormat.PCAP) {
            var h = info.pcapHeader();
            m.put("version", h.versionMajor() + "." + h.versionMinor());
            m.put("snap_length", h.snapLength());
        } else {
            m.put("section_count", info.sectionCount());
            m.put("sections", sections(info));
        }
        m.put("interface_count", info.interfaceCount());
        m.put("interfaces", interfaces(info));
    }

    private static List<Object> sections(CaptureInfo info) {
        List<Object> out = new ArrayList<>();
        for (CaptureInfo.Section sec : info.sections()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("index", sec.index());
            o.put("offset", sec.offset());
            o.put("byte_order", sec.bigEndian() ? "big-endian" : "little-endian");
            o.put("version", sec.versionMajor() + "." + sec.versionMinor());
            putIfSet(o, "hardware", sec.hardware());
            putIfSet(o, "os", sec.os());
            putIfSet(o, "application", sec.application());
            out.add(o);
        }
        return out;
    }

    private static List<Object> interfaces(CaptureInfo info) {
        List<Object> out = new ArrayList<>();
        for (CaptureInfo.Interface i : info.interfaces()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("section", i.section());
            o.put("id", i.id());
            o.put("linktype", i.linkType());
            o.put("link_name", LinkTypes.describe(i.linkType()));
            o.put("snap_length", i.snapLength());
            o.put("resolution", i.resolution().toString());
            o.put("timestamp_offset_s", i.timestampOffsetSeconds());
            if (i.fcsLength() >= 0) {
                o.put("fcs_bytes", i.fcsLength());
            }
            putIfSet(o, "name", i.name());
            putIfSet(o, "description", i.description());
            out.add(o);
        }
        return out;
    }

    private static void counts(Map<String, Object> m, CaptureSummary s) {
        m.put("packets", s.packets);
        m.put("non_packet_records", s.info.nonPacketRecords());
        if (s.decoded) {
            Map<String, Object> st = new LinkedHashMap<>();
            for (DecodeStatus d : DecodeStatus.values()) {
                st.put(d.name().toLowerCase(Locale.ROOT), s.byStatus[d.ordinal()]);
            }
            m.put("decode_status", st);
            m.put("stop_reasons", new LinkedHashMap<String, Object>(s.stopReasons));
        }
        m.put("truncated_records", s.truncated);
        m.put("oversized_records", s.oversized);
        m.put("captured_bytes", s.capturedBytes);
        m.put("original_bytes", s.originalBytes);
        if (s.earliest <= s.latest) {
            m.put("first_packet_time_ns", s.earliest);
            m.put("first_packet_time", InfoCommand.iso(s.earliest));
            m.put("last_packet_time_ns", s.latest);
            m.put("last_packet_time", InfoCommand.iso(s.latest));
            m.put("duration_ns", s.latest - s.earliest);
            m.put("out_of_order_records", s.outOfOrder);
        }
        m.put("untimestamped_records", s.untimestamped);
        m.put("comments", s.info.comments());
        m.put("comment_count", s.info.commentCount());
        if (!s.info.blockCounts().isEmpty()) {
            m.put("blocks", new java.util.TreeMap<String, Object>(s.info.blockCounts()));
        }
    }

    private static void putIfSet(Map<String, Object> o, String key, String value) {
        if (value != null) {
            o.put(key, value);
        }
    }
}
