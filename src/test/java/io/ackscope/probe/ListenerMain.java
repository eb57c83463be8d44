package io.ackscope.probe;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A TCP listener for tests that need one inside a network namespace ({@code ip netns exec NS java ...}): binds
 * {@code HOST PORT}, prints {@code ready}, accepts and closes connections, and exits after {@code SECONDS} at most.
 */
public final class ListenerMain {

    private ListenerMain() {
    }

    public static void main(String[] args) throws IOException {
        long deadline = System.nanoTime() + Long.parseLong(args[2]) * 1_000_000_000L;
        try (ServerSocket s = new ServerSocket(Integer.parseInt(args[1]), 50, InetAddress.getByName(args[0]))) {
            s.setSoTimeout(200);
            System.out.println("ready");
            System.out.flush();
            while (System.nanoTime() < deadline) {
                try (Socket c = s.accept()) {
                    c.setSoLinger(true, 0);
                } catch (SocketTimeoutException e) {
                    // check the deadline again
                }
            }
        }
    }
}
