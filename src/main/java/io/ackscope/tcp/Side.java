package io.ackscope.tcp;

/** Which end of a connection: the originator (client, SYN sender) or the responder (server). */
public enum Side {
    ORIGINATOR, RESPONDER;

    public Side other() {
        return this == ORIGINATOR ? RESPONDER : ORIGINATOR;
    }

    /** "client" / "server", for sentences. */
    public String role() {
        return this == ORIGINATOR ? "client" : "server";
    }
}
