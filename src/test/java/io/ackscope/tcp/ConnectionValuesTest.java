package io.ackscope.tcp;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ConnectionValuesTest {
    /** Each distinct value and its count, ascending, as "value x count". */
    private static List<String> pairs(ValueCounts v) {
        List<String> out = new ArrayList<>();
        v.forEach((value, count) -> out.add(value + "x" + count));
        return out;
    }

    @Test
    void keepsEveryValueOfEachMetricThroughGrowth() {
        ConnectionValues v = new ConnectionValues();
        for (int i = 0; i < 100; i++) {
            v.add(EndpointAggregate.ACK_DELAY, 40_000 + i % 3);
        }
        v.add(EndpointAggregate.DATA_RTT, 250);
        v.add(EndpointAggregate.DATA_RTT, 0);
        v.add(EndpointAggregate.DATA_RTT, 250);
        ValueCounts[] c = v.counts();
        assertEquals(List.of("40000x34", "40001x33", "40002x33"), pairs(c[EndpointAggregate.ACK_DELAY]));
        assertEquals(List.of("0x1", "250x2"), pairs(c[EndpointAggregate.DATA_RTT]));
        assertNull(c[EndpointAggregate.TTFB]);
        assertNull(c[EndpointAggregate.HANDSHAKE_RTT]);

        ValueCounts endpoint = new ValueCounts();
        endpoint.add(250);
        v.addTo(EndpointAggregate.DATA_RTT, endpoint);
        assertEquals(List.of("0x1", "250x3"), pairs(endpoint));
    }

    @Test
    void addsToWhatAnEarlierRunCarried() {
        ValueCounts[] earlier = new ValueCounts[EndpointAggregate.METRICS];
        earlier[EndpointAggregate.TTFB] = new ValueCounts();
        earlier[EndpointAggregate.TTFB].add(1_200, 5);
        ConnectionValues v = ConnectionValues.carried(earlier);
        v.add(EndpointAggregate.TTFB, 1_200);
        v.add(EndpointAggregate.COMPLETE, 9_000);
        ValueCounts[] c = v.counts();
        assertEquals(List.of("1200x6"), pairs(c[EndpointAggregate.TTFB]));
        assertEquals(List.of("9000x1"), pairs(c[EndpointAggregate.COMPLETE]));
        assertNull(c[EndpointAggregate.ACK_DELAY]);
        // counts() leaves the carried counts as they were (a hold may take them more than once)
        assertEquals(List.of("1200x5"), pairs(earlier[EndpointAggregate.TTFB]));
    }
}
