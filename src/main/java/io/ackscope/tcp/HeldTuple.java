package io.ackscope.tcp;

/**
 * One 4-tuple's engine state, to continue in a later engine (a later run): {@link TcpEngine#hold} gives it,
 * {@link TcpEngine#resume} takes it. The 4-tuple is in canonical {@link TupleKey} order (a, the lower endpoint, then
 * b), so a job can route the state to where the 4-tuple's frames go; {@code state} is opaque, versioned bytes that a
 * resuming engine of another ackscope version refuses.
 */
public record HeldTuple(long aHi, long aLo, int aPort, long bHi, long bLo, int bPort, byte[] state) {
}
