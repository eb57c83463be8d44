package io.ackscope.tcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ackscope.capture.CaptureReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Loss of the server's segments captured at the client (jobs/lab-causes loss-client and loss-client-tail,
 * sample-pcaps/README.md): the receiver sees holes and late in-order segments, never the originals. The loss causes
 * rank first and their time lost is what the lossy responses took beyond the loss-free ones.
 */
class ReceiverLossTest {
    private static final Set<Cause> LOSS = EnumSet.of(Cause.FAST_RETRANSMIT, Cause.TAIL_LOSS_PROBE, Cause.RTO);
    private static final long MS = 1_000_000L;

    /** What one capture shows: its exchanges and cause events. */
    private record Run(List<Exchange> exchanges, List<CauseEvent> causes) {
    }

    private static Run run(String capture) throws Exception {
        List<Exchange> exchanges = new ArrayList<>();
        List<CauseEvent> causes = new ArrayList<>();
        TcpEngine engine = new TcpEngine(new AnalysisSink() {
            @Override
            public void onCause(CauseEvent e) {
                causes.add(e);
            }

            @Override
            public void onExchange(Exchange e) {
                exchanges.add(e);
            }
        });
        try (CaptureReader reader = CaptureReader.open(Path.of("sample-pcaps", capture))) {
            new CaptureFeeder().feed(reader, 0, engine);
        }
        engine.finish();
        return new Run(exchanges, causes);
    }

    /** Time lost per cause, over all events. */
    private static Map<Cause, Long> totals(List<CauseEvent> causes) {
        Map<Cause, Long> m = new EnumMap<>(Cause.class);
        for (CauseEvent e : causes) {
            m.merge(e.cause(), e.timeLostNanos(), Long::sum);
        }
        return m;
    }

    private static long responseTime(Exchange x) {
        return x.responseLastNanos() - x.requestStartNanos();
    }

    private static boolean lossy(Exchange x, List<CauseEvent> loss) {
        for (CauseEvent e : loss) {
            if (e.connection().stream() == x.connection().stream() && e.endNanos() > x.requestStartNanos()
                    && e.startNanos() < x.responseLastNanos()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Asserts the figures of one client-side capture; returns {loss time lost, excess} in ms for the message.
     * Excess: the lossy responses' time beyond the median of the loss-free ones (all 30,000-byte responses).
     */
    private static long[] check(String capture) throws Exception {
        Run r = run(capture);
        List<CauseEvent> loss = r.causes().stream().filter(e -> LOSS.contains(e.cause())).toList();
        assertTrue(loss.stream().allMatch(e -> e.side() == Side.RESPONDER), "the server's segments were lost");
        long[] free = r.exchanges().stream().filter(x -> x.responseLastNanos() > 0 && !lossy(x, loss))
                .mapToLong(ReceiverLossTest::responseTime).sorted().toArray();
        assertTrue(free.length >= 10, capture + ": loss-free responses " + free.length);
        long median = free[free.length / 2];
        long excess = r.exchanges().stream().filter(x -> x.responseLastNanos() > 0 && lossy(x, loss))
                .mapToLong(x -> responseTime(x) - median).sum();
        long lost = loss.stream().mapToLong(CauseEvent::timeLostNanos).sum();
        Map<Cause, Long> totals = totals(r.causes());
        Cause first = totals.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        String figures = capture + ": loss causes " + lost / MS + " ms, excess of lossy responses " + excess / MS
                + " ms (loss-free median " + median / 1000 + " us), totals " + totals;
        assertTrue(LOSS.contains(first), figures);
        assertTrue(excess > 500 * MS, figures);
        assertTrue(Math.abs(lost - excess) <= excess / 4, figures);
        System.out.println(figures);
        return new long[] {lost / MS, excess / MS};
    }

    @Test
    void lossSeenAtTheClientCostsWhatTheLossyResponsesLost() throws Exception {
        check("lab-cause-loss-client.pcap.gz");
    }

    @Test
    void tailLossesSeenAtTheClientAreRtosTimedByTheirHoles() throws Exception {
        check("lab-cause-loss-client-tail.pcap.gz");
        Run r = run("lab-cause-loss-client-tail.pcap.gz");
        Map<Cause, Long> totals = totals(r.causes());
        assertEquals(Cause.RTO, totals.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
    }

    @Test
    void theSameLossCapturedAtTheServerIsStillTimedFromTheOriginals() throws Exception {
        Run r = run("lab-cause-loss.pcap.gz");
        Map<Cause, Long> totals = totals(r.causes());
        assertEquals(Cause.RTO, totals.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey());
        // at the sender every retransmission has its original: no episode is timed by a hole
        Run client = run("lab-cause-loss-client.pcap.gz");
        assertEquals(r.exchanges().size(), client.exchanges().size());
    }
}
