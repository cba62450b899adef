import ArgumentParser
import ExportParser

/// `--body wrapped|bare`: `--help` lists the values and ArgumentParser refuses another.
extension PushBody: ExpressibleByArgument {}
