package io.ackscope.load;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Units as wrk prints them (wrk's units.c), checked against figures wrk printed on this machine. */
class LoadReportTest {

    private static final String[] BINARY = {"", "K", "M", "G", "T", "P"};

    @Test
    void microsecondsBelowEightHundredFiftyStayMicroseconds() {
        assertEquals("80.00us", LoadReport.formatTimeUs(80));
        assertEquals("849.00us", LoadReport.formatTimeUs(849));
    }

    @Test
    void fromEightyFivePercentOfAUnitTheLargerUnitIsUsed() {
        assertEquals("0.85ms", LoadReport.formatTimeUs(850));
        assertEquals("43.98ms", LoadReport.formatTimeUs(43_980));
    }

    @Test
    void millisecondsAreNotPromotedToSecondsBelowOneSecond() {
        assertEquals("900.00ms", LoadReport.formatTimeUs(900_000));
        assertEquals("2.00s", LoadReport.formatTimeUs(2_000_000));
        assertEquals("1.50m", LoadReport.formatTimeUs(90_000_000));
    }

    @Test
    void bytesUseBinaryUnits() {
        assertEquals("780.06K", LoadReport.formatUnits(780.06 * 1024, 1024, BINARY, 2));
        assertEquals("185.08M", LoadReport.formatUnits(185.08 * 1024 * 1024, 1024, BINARY, 2));
        assertEquals("512.00", LoadReport.formatUnits(512, 1024, BINARY, 2));
    }
}
