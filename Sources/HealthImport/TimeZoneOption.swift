import ArgumentParser

/// `--timezone`, shared by every command that folds samples into days (convert, compare,
/// explain), so the rule its help states is written once (docs/rules.md, "Days and time zones").
struct TimeZoneOption: ParsableArguments {
    @Option(
        name: .customLong("timezone"),
        help: ArgumentHelp(
            "IANA time zone that decides each sample's calendar day. Without it, the zone the export's HKTimeZone entries name at that time decides (every export.xml timestamp is written in the export moment's offset); only an input without any HKTimeZone (HAE) keeps each timestamp's recorded offset. Example: --timezone Europe/Amsterdam",
            valueName: "zone"))
    var name: String?
}
