package io.ackscope.capture;

import java.util.List;

/**
 * The state a pcapng reader needs to interpret packet blocks of one section: its byte order and the interfaces its
 * IDBs declared so far. Immutable snapshot; what a split reader needs to resume at a block boundary
 * ({@link PcapngReader#resume}).
 *
 * @param index      0-based section number
 * @param offset     byte offset of the section's SHB
 * @param bigEndian  byte order of the section
 * @param interfaces the section's interfaces, in IDB order (interface id = list index)
 */
public record PcapngSection(int index, long offset, boolean bigEndian, List<CaptureInfo.Interface> interfaces) {
    public PcapngSection {
        interfaces = List.copyOf(interfaces);
    }
}
