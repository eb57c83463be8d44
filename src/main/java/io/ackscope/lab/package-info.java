/**
 * The stall lab: the seed experiment end to end on loopback ({@link io.ackscope.lab.Lab}). For each
 * {@link io.ackscope.lab.Setup} it starts a server (ackscope {@code serve} or Debian's nginx), a capture and a load
 * run as child processes, analyses the captures, and prints the before/after table
 * ({@link io.ackscope.lab.LabTable}); the kept captures and their README section are what {@code sample-pcaps/} ships.
 *
 * <p>Uses {@code tcp} and {@code tables} (to read the tables analyze wrote); runs the other commands as processes, not
 * as classes.
 */
package io.ackscope.lab;
