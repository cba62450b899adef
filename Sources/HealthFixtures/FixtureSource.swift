import ExportParser

/// A device or app that writes records: the watch, the phone, and third-party apps. The device
/// text is the `HKDevice` description the Health app writes, less its memory address (which the
/// writer makes up per record, as every real record has its own).
struct FixtureSource: Sendable {
    var name: String
    var version: String
    var device: String?

    // Real exports write "Apple Watch" with a no-break space and the owner's name with a curly
    // apostrophe; both are part of what the reader must handle.
    static let watch = FixtureSource(
        name: "Anna’s Apple\u{00A0}Watch", version: "10.3.1",
        device: "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.3.1")
    static let phone = FixtureSource(
        name: "Anna’s iPhone", version: "17.3.1",
        device: "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone15,2, software:17.3.1")
    /// Food logging: every dietary record and food correlation.
    static let foodApp = FixtureSource(name: "MyFitnessPal", version: "23.4.0", device: nil)
    /// A smart scale and blood-pressure cuff.
    static let scale = FixtureSource(
        name: "Withings", version: "6.3.2",
        device: "name:Body+, manufacturer:Withings, model:WBS05, hardware:WBS05, software:1.2")
    /// A pedometer app whose steps the watch always covers (source priority gives it nothing).
    static let pedometer = FixtureSource(name: "Pedometer++", version: "5.3", device: nil)
    /// A running app that writes the run's energy too (the watch covers it).
    static let runningApp = FixtureSource(name: "Strava", version: "340.0", device: nil)
}
