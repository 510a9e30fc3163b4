package dev.tokentrace.cli;

import picocli.CommandLine.IVersionProvider;

/** Prints the jar's version and the Java runtime it runs on. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = TokentraceMain.class.getPackage().getImplementationVersion();
    return new String[] {
      "tokentrace " + (version == null ? "(development build)" : version),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
