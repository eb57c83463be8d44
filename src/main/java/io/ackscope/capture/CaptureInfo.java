package io.ackscope.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * File-level description of a capture: format, compression, sections, interfaces, comments and block counts,
 * as known when {@link CaptureReader#info()} was called (a snapshot; pcapng interfaces may appear later in a file).
 *
 * <p>A classic pcap file is described as one section with one interface (id 0), so callers can treat both formats
 * alike. Every string comes from the capture: it is bounded and stripped of control characters, but callers must
 * still escape it for HTML.
 */
public final class CaptureInfo {
    /** Most sections and interfaces described individually; a hostile file could declare millions. */
    public static final int MAX_KEPT = 4096;
    /** Most comments kept (each bounded to 256 characters); all are counted. */
    public static final int MAX_COMMENTS = 32;

    /**
     * One pcapng section (or the classic pcap file).
     *
     * @param index         0-based section number in file order
     * @param offset        byte offset of the SHB (0 for classic pcap)
     * @param bigEndian     byte order of the section
     * @param sectionLength the SHB's section length, -1 when not given (always -1 for classic pcap)
     * @param hardware      shb_hardware, or null
     * @param os            shb_os, or null
     * @param application   shb_userappl, or null
     */
    public record Section(int index, long offset, boolean bigEndian, int versionMajor, int versionMinor,
                          long sectionLength, String hardware, String os, String application) {
    }

    /**
     * One interface (pcapng IDB; for classic pcap, the file header).
     *
     * @param section                section index the IDB belongs to
     * @param id                     interface id within its section (what packet blocks and
     *                               {@link CaptureReader#interfaceId()} use)
     * @param offset                 byte offset of the IDB (0 for classic pcap)
     * @param linkType               LINKTYPE_ value
     * @param snapLength             snap length (0 = none)
     * @param resolution             timestamp unit
     * @param timestampOffsetSeconds if_tsoffset, added to every timestamp
     * @param name                   if_name or null
     * @param description            if_description or null
     * @param fcsLength              FCS bytes at the end of each frame (if_fcslen, or the pcap link-type FCS bits),
     *                               -1 when unknown
     */
    public record Interface(int section, int id, long offset, int linkType, long snapLength,
                            TimestampResolution resolution, long timestampOffsetSeconds, String name,
                            String description, int fcsLength) {
    }

    private final CaptureFormat format;
    private final Compression compression;
    private final List<Section> sections;
    private final List<Interface> interfaces;
    private final PcapFileHeader pcapHeader;
    private final long commentCount;
    private final List<String> comments;
    private final Map<String, Long> blockCounts;
    private final long nonPacketRecords;
    private final long sectionCount;
    private final long interfaceCount;

    CaptureInfo(CaptureFormat format, Compression compression, List<Section> sections, long sectionCount,
                List<Interface> interfaces, long interfaceCount, PcapFileHeader pcapHeader, long commentCount,
                List<String> comments, Map<String, Long> blockCounts, long nonPacketRecords) {
        this.format = format;
        this.compression = compression;
        this.sections = List.copyOf(sections);
        this.interfaces = List.copyOf(interfaces);
        this.pcapHeader = pcapHeader;
        this.commentCount = commentCount;
        this.comments = List.copyOf(comments);
        this.blockCounts = Map.copyOf(blockCounts);
        this.nonPacketRecords = nonPacketRecords;
        this.sectionCount = sectionCount;
        this.interfaceCount = interfaceCount;
    }

    public CaptureFormat format() {
        return format;
    }

    public Compression compression() {
        return compression;
    }

    /** Sections in file order (one for classic pcap); at most {@link #MAX_KEPT} are kept, see {@link #sectionCount()}. */
    public List<Section> sections() {
        return sections;
    }

    /** Number of sections read (may exceed {@code sections().size()}). */
    public long sectionCount() {
        return sectionCount;
    }

    /**
     * Interfaces in file order, across sections (one for classic pcap); at most {@link #MAX_KEPT} are kept, see
     * {@link #interfaceCount()}.
     */
    public List<Interface> interfaces() {
        return interfaces;
    }

    /** Number of interfaces declared in all sections (may exceed {@code interfaces().size()}). */
    public long interfaceCount() {
        return interfaceCount;
    }

    /** The interface a record's (section, interface id) refers to, or null. */
    public Interface interfaceOf(int section, int id) {
        for (Interface i : interfaces) {
            if (i.section() == section && i.id() == id) {
                return i;
            }
        }
        return null;
    }

    /** The classic pcap file header, or null for pcapng. */
    public PcapFileHeader pcapHeader() {
        return pcapHeader;
    }

    /** "little-endian", "big-endian", or "mixed" when sections differ; null before any section was read. */
    public String byteOrder() {
        String order = null;
        for (Section s : sections) {
            String o = s.bigEndian() ? "big-endian" : "little-endian";
            if (order == null) {
                order = o;
            } else if (!order.equals(o)) {
                return "mixed";
            }
        }
        return order;
    }

    /** Distinct timestamp resolutions over the interfaces, in first-seen order. */
    public List<TimestampResolution> resolutions() {
        List<TimestampResolution> out = new ArrayList<>();
        for (Interface i : interfaces) {
            if (!out.contains(i.resolution())) {
                out.add(i.resolution());
            }
        }
        return out;
    }

    /** Distinct link types over the interfaces, in first-seen order. */
    public List<Integer> linkTypes() {
        List<Integer> out = new ArrayList<>();
        for (Interface i : interfaces) {
            if (!out.contains(i.linkType())) {
                out.add(i.linkType());
            }
        }
        return out;
    }

    /** Number of opt_comment options seen in all blocks. */
    public long commentCount() {
        return commentCount;
    }

    /** The first comments (bounded in number and length). */
    public List<String> comments() {
        return comments;
    }

    /**
     * pcapng blocks read so far by kind ("SHB", "IDB", "EPB", "SPB", "PB", "NRB", "ISB", "DSB", "CB",
     * "unknown"); empty for classic pcap.
     */
    public Map<String, Long> blockCounts() {
        return blockCounts;
    }

    /**
     * Records that tshark numbers as frames but that carry no packet (pcapng custom blocks, systemd journal export
     * blocks). The reader skips them, so {@link CaptureReader#frameNumber()} has a gap for each.
     */
    public long nonPacketRecords() {
        return nonPacketRecords;
    }
}
