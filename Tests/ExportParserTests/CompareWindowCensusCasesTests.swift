import Foundation
import XCTest

@testable import ExportParser

/// Hand-written exports aimed at the census's assumptions (the brief of the census review):
/// each compared through the window and in full; any difference fails, named by its case.
final class CompareWindowCensusCasesTests: ParseThreadsTestCase {
    typealias C = CompareWindowCensusTests

    private func check(_ label: String, _ body: String, exportDate: String = "2024-04-01 08:00:00 +0100", crlf: Bool = false) throws {
        var text = C.export(C.inWindow + body, exportDate: exportDate)
        if crlf { text = text.replacingOccurrences(of: "\n", with: "\r\n") }
        // 64-byte chunks may leave a file of 260-byte records to one parser (a cut needs a
        // boundary within four chunks' bytes), 4096 bytes hold the whole file: 256 is a window
        // read with cuts.
        let chunks = [64, 256, 4096]
        for (chunk, found) in zip(chunks, try C.differences(bytes: Data(text.utf8), chunks: chunks)) {
            for d in found { XCTFail("\(label) (chunks of \(chunk)): \(d)") }
        }
    }

    /// Units a rule the census takes is written in: the catalog's, another it converts, one it
    /// does not know, and percentages stored as fractions and as whole numbers.
    func testUnusualUnits() throws {
        let hr = C.heart, o2 = "HKQuantityTypeIdentifierOxygenSaturation"
        try check("count/min", C.record(hr, "60", unit: "count/min", start: "2024-01-10 12:00:00 +0100"))
        try check("/min", C.record(hr, "60", unit: "/min", start: "2024-01-10 12:00:00 +0100"))
        try check("count/s", C.record(hr, "1.5", unit: "count/s", start: "2024-01-10 12:00:00 +0100"))
        try check("% as 0.97", C.record(o2, "0.97", unit: "%", start: "2024-01-11 12:00:00 +0100"))
        try check("% as 97", C.record(o2, "97", unit: "%", start: "2024-01-11 12:00:00 +0100"))
        try check("no unit", C.record(o2, "0.97", unit: "", start: "2024-01-11 12:00:00 +0100"))
        let t = "HKQuantityTypeIdentifierBodyTemperature", water = "HKQuantityTypeIdentifierDietaryWater"
        try check("degC", C.record(t, "37", unit: "degC", start: "2024-01-12 12:00:00 +0100"))
        try check("degF", C.record(t, "98.6", unit: "degF", start: "2024-01-12 12:00:00 +0100"))
        try check("mL", C.record(water, "250", unit: "mL", start: "2024-01-13 12:00:00 +0100"))
        try check("L", C.record(water, "0.25", unit: "L", start: "2024-01-13 12:00:00 +0100"))
        let energy = "HKQuantityTypeIdentifierActiveEnergyBurned", mass = "HKQuantityTypeIdentifierBodyMass"
        try check("kJ", C.record(energy, "400", unit: "kJ", start: "2024-01-14 12:00:00 +0100", end: "2024-01-14 12:30:00 +0100"))
        try check("lb", C.record(mass, "160", unit: "lb", start: "2024-01-14 07:00:00 +0100"))
        try check("unit with a tab", C.record(C.steps, "5", unit: "count\t", start: "2024-01-14 07:00:00 +0100"))
        try check("unit &#99;ount", C.record(C.steps, "5", unit: "&#99;ount", start: "2024-01-14 07:00:00 +0100"))
    }

    /// Values: implausible, zero, with an exponent, a leading `+`, spaces, an entity.
    func testUnusualValues() throws {
        for (label, v) in [
            ("implausible", "900"), ("zero", "0"), ("exponent", "6e1"), ("plus", "+60"), ("space before", " 60"), ("space after", "60 "),
            ("tab", "6\t0"), ("entity", "6&#48;"), ("negative", "-60"), ("hex", "0x3C"), ("text", "sixty"), ("empty", ""),
        ] {
            try check("heart rate \(label)", C.record(C.heart, v, unit: "count/min", start: "2024-01-10 12:00:00 +0100"))
            try check(
                "steps \(label)", C.record(C.steps, v, start: "2024-01-10 12:00:00 +0100", end: "2024-01-10 12:10:00 +0100"))
        }
    }

    /// Dates at and around local midnights, sums of exactly a day, and offsets of quarter-hours
    /// and halves and of neither.
    func testMidnightsAndOffsets() throws {
        try check("at a midnight", C.record(C.heart, "60", unit: "count/min", start: "2024-01-10 00:00:00 +0100"))
        try check("just before one", C.record(C.heart, "60", unit: "count/min", start: "2024-01-10 23:59:59 +0100"))
        try check(
            "a sum of exactly a day",
            C.record(C.steps, "1000", start: "2024-01-10 00:00:00 +0100", end: "2024-01-11 00:00:00 +0100"))
        try check(
            "a sum ending at a midnight", C.record(C.steps, "10", start: "2024-01-10 23:50:00 +0100", end: "2024-01-11 00:00:00 +0100"))
        try check(
            "a sum of none at a midnight", C.record(C.steps, "10", start: "2024-01-11 00:00:00 +0100", end: "2024-01-11 00:00:00 +0100"))
        try check(
            "a sum of a day and a second",
            C.record(C.steps, "1000", start: "2024-01-10 00:00:00 +0100", end: "2024-01-11 00:00:01 +0100"))
        for offset in ["+0545", "+1345", "-0930", "+0530", "-1200", "+1400", "+0553", "+0000"] {
            try check(
                "offset \(offset)",
                C.record(C.heart, "60", unit: "count/min", start: "2024-01-10 00:00:00 \(offset)")
                    + C.record(C.steps, "10", start: "2024-01-10 23:55:00 \(offset)", end: "2024-01-11 00:05:00 \(offset)")
                    + C.record(C.heart, "61", unit: "count/min", start: "2024-01-12 23:59:00 \(offset)"))
        }
    }

    /// `HKTimeZone` in a record outside the window (the zone of every later date), on nested
    /// lines and on the record's own line; a zone of an odd offset (Nepal) and of a date line.
    func testZonesOutsideTheWindow() throws {
        try check(
            "a zone entry outside",
            C.record(C.heart, "60", unit: "count/min", start: "2024-01-05 12:00:00 +0100", children: C.zone("Asia/Kathmandu"))
                + C.record(C.heart, "61", unit: "count/min", start: "2024-01-10 23:59:00 +0545")
                + C.record(C.steps, "10", start: "2024-01-12 00:05:00 +0545", end: "2024-01-12 00:10:00 +0545"))
        try check(
            "a zone entry on the record's line",
            " <Record type=\"\(C.heart)\" sourceName=\"Phone\" unit=\"count/min\" startDate=\"2024-01-05 12:00:00 +0100\" "
                + "endDate=\"2024-01-05 12:00:00 +0100\" value=\"60\"><MetadataEntry key=\"HKTimeZone\" value=\"Pacific/Kiritimati\"/></Record>\n"
                + C.record(C.heart, "61", unit: "count/min", start: "2024-01-10 23:30:00 +1400"))
        try check(
            "a zone key written with a character reference",
            C.record(
                C.heart, "60", unit: "count/min", start: "2024-01-05 12:00:00 +0100",
                children: "  <MetadataEntry key=\"HK&#84;imeZone\" value=\"Asia/Tokyo\"/>\n")
                + C.record(C.heart, "61", unit: "count/min", start: "2024-01-10 20:00:00 +0100"))
        try check(
            "a zone entry with key second",
            C.record(
                C.heart, "60", unit: "count/min", start: "2024-01-05 12:00:00 +0100",
                children: "  <MetadataEntry value=\"America/St_Johns\" key=\"HKTimeZone\"/>\n")
                + C.record(C.heart, "61", unit: "count/min", start: "2024-01-10 23:30:00 -0330"))
    }

    /// Source names the census must decode as libxml2 does, or leave to it.
    func testSourceNames() throws {
        for name in ["&#65;nna", "A&#x9;B", "A\tB", "Zoë’s iPhone", "Anna &amp; Bob", "&lt;x&gt; &quot;q&quot;", "A&#10;B", " padded "] {
            try check(
                "source \(name)",
                C.record(C.steps, "5", source: name, start: "2024-01-10 12:00:00 +0100", end: "2024-01-10 12:01:00 +0100")
                    + C.record(C.heart, "60", unit: "count/min", source: name, device: C.watch, start: "2024-01-11 12:00:00 +0100")
                    + C.record(C.heart, "61", unit: "count/min", source: name, device: C.watch, start: "2024-01-12 12:00:00 +0100"))
        }
        // One name in two normal forms (é precomposed and e + U+0301): Swift's strings are equal.
        try check(
            "one name in two normal forms",
            C.record(C.steps, "5", source: "Caf\u{E9}", start: "2024-01-10 12:00:00 +0100", end: "2024-01-10 12:01:00 +0100")
                + C.record(C.steps, "6", source: "Cafe\u{301}", start: "2024-01-11 12:00:00 +0100", end: "2024-01-11 12:01:00 +0100"))
    }

    /// Overlap: the phone and the watch counting the same steps, a phone record the watch's
    /// covers entirely, duplicates, and sources that only appear outside the window.
    func testOverlapsAndDuplicates() throws {
        let w = C.record(C.steps, "500", source: "W", device: C.watch, start: "2024-01-10 10:00:00 +0100", end: "2024-01-10 11:00:00 +0100")
        let p = C.record(C.steps, "450", start: "2024-01-10 10:00:00 +0100", end: "2024-01-10 11:00:00 +0100")
        let inside = C.record(C.steps, "30", source: "Only", start: "2024-01-10 10:10:00 +0100", end: "2024-01-10 10:20:00 +0100")
        try check("phone and watch", w + w.replacingOccurrences(of: "500", with: "20") + p + inside)
        try check("duplicates", p + p + p)
        try check("watch only outside", w + w + w)
        try check("a source only outside", inside)
        try check("a watch in the window too", w + C.record(C.steps, "9", source: "W", device: C.watch, start: "2024-02-03 10:00:00 +0100"))
    }

    /// Around the export date: records after it are skipped by the reader.
    func testAfterTheExportDate() throws {
        let late = C.record(C.steps, "5", source: "Late", start: "2024-05-01 12:00:00 +0100", end: "2024-05-01 12:01:00 +0100")
        try check("after the export date", late)
        try check("a second after", C.record(C.heart, "60", unit: "count/min", start: "2024-04-01 08:00:01 +0100"))
        try check("at the export date", C.record(C.heart, "60", unit: "count/min", start: "2024-04-01 08:00:00 +0100"))
        try check(
            "a sum across the export date", C.record(C.steps, "5", start: "2024-04-01 07:50:00 +0100", end: "2024-04-01 08:20:00 +0100"))
    }

    /// Layouts libxml2 reads alike and the census's scan might not.
    func testLayouts() throws {
        let reordered =
            " <Record value=\"60\" endDate=\"2024-01-10 12:00:00 +0100\" startDate=\"2024-01-10 12:00:00 +0100\" unit=\"count/min\" "
            + "sourceName=\"R\" type=\"\(C.heart)\"/>\n"
        try check("attribute order", reordered)
        try check("single quotes", reordered.replacingOccurrences(of: "\"", with: "'"))
        try check("single-quoted source", reordered.replacingOccurrences(of: "sourceName=\"R\"", with: "sourceName='R\"s'"))
        try check("spaces around =", reordered.replacingOccurrences(of: "value=", with: "value = "))
        try check("attributes on lines", reordered.replacingOccurrences(of: "\" ", with: "\"\n   "))
        try check("CRLF", C.record(C.steps, "5", start: "2024-01-10 12:00:00 +0100", end: "2024-01-10 12:01:00 +0100"), crlf: true)
        let meta = "  <MetadataEntry key=\"HKWasUserEntered\" value=\"1\"/>\n"
        try check("open with metadata", C.record(C.heart, "60", unit: "count/min", start: "2024-01-10 12:00:00 +0100", children: meta))
        try check(
            "open and empty",
            " <Record type=\"\(C.heart)\" sourceName=\"P\" unit=\"count/min\" startDate=\"2024-01-10 12:00:00 +0100\" "
                + "endDate=\"2024-01-10 12:00:00 +0100\" value=\"60\"></Record>\n")
        let bp = "HKCorrelationTypeIdentifierBloodPressure", sys = "HKQuantityTypeIdentifierBloodPressureSystolic"
        try check(
            "a correlation",
            " <Correlation type=\"\(bp)\" sourceName=\"P\" startDate=\"2024-01-10 12:00:00 +0100\" endDate=\"2024-01-10 12:00:00 +0100\">\n"
                + "  <Record type=\"\(sys)\" sourceName=\"P\" unit=\"mmHg\" startDate=\"2024-01-10 12:00:00 +0100\" "
                + "endDate=\"2024-01-10 12:00:00 +0100\" value=\"120\"/>\n"
                + "  <Record type=\"HKQuantityTypeIdentifierDietaryProtein\" sourceName=\"P\" unit=\"g\" "
                + "startDate=\"2024-01-10 12:00:00 +0100\" endDate=\"2024-01-10 12:00:00 +0100\" value=\"20\"/>\n </Correlation>\n")
    }

    /// A workout (read) that states no heart rate takes the heart-rate records inside it (cut):
    /// one outside the window, and one that starts on the window's last date and lasts 60 h,
    /// past the scan's two days of margin.
    func testWorkoutsAndTheirHeartRates() throws {
        func workout(_ start: String, _ end: String, minutes: String) -> String {
            " <Workout workoutActivityType=\"HKWorkoutActivityTypeHiking\" duration=\"\(minutes)\" durationUnit=\"min\" "
                + "sourceName=\"W\" device=\"\(C.watch)\" startDate=\"\(start)\" endDate=\"\(end)\">\n </Workout>\n"
        }
        func heart(_ start: String, _ v: String) -> String {
            C.record(C.heart, v, unit: "count/min", source: "W", device: C.watch, start: start)
        }
        try check(
            "a workout outside",
            heart("2024-01-10 10:10:00 +0100", "100") + heart("2024-01-10 10:20:00 +0100", "140")
                + workout("2024-01-10 10:00:00 +0100", "2024-01-10 11:00:00 +0100", minutes: "60"))
        try check(
            "a workout of 60 h from the window's last date",
            heart("2024-02-07 21:00:00 +0100", "100") + heart("2024-02-10 06:00:00 +0100", "160")
                + workout("2024-02-07 20:00:00 +0100", "2024-02-10 08:00:00 +0100", minutes: "3600"))
    }

    /// The export date written after the records (the reader skips only records after it that
    /// come after it in the file), and malformed records outside the window.
    func testOrderAndMalformedRecords() throws {
        let late = C.record(C.steps, "5", source: "Late", start: "2024-05-01 12:00:00 +0100", end: "2024-05-01 12:01:00 +0100")
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n" + C.inWindow + late
            + " <ExportDate value=\"2024-04-01 08:00:00 +0100\"/>\n</HealthData>\n"
        for d in try C.differences(text) { XCTFail("the export date last: \(d)") }
        let good = C.record(C.steps, "5", start: "2024-01-10 12:00:00 +0100", end: "2024-01-10 12:01:00 +0100")
        try check("a duplicate attribute", good.replacingOccurrences(of: " value=", with: " sourceName=\"X\" value="))
        try check("a raw < in a value", good.replacingOccurrences(of: "Phone", with: "Ph<one"))
        try check("an unknown entity", good.replacingOccurrences(of: "Phone", with: "Ph&one;"))
        try check("a malformed reference", good.replacingOccurrences(of: "Phone", with: "&#+65;"))
    }

    /// A type's unit changing from record to record (the census caches the last conversion),
    /// values strtod would take but the reader does not, a second `ExportDate`, and a sum over
    /// a change to summer time with --timezone.
    func testConversionsOverflowsAndZones() throws {
        try check(
            "units alternating",
            C.record(C.heart, "60", unit: "count/min", start: "2024-01-10 12:00:00 +0100")
                + C.record(C.heart, "10", unit: "count/s", start: "2024-01-11 12:00:00 +0100")
                + C.record(C.heart, "1.2", unit: "count/s", start: "2024-01-12 12:00:00 +0100")
                + C.record(C.heart, "70", unit: "count/min", start: "2024-01-13 12:00:00 +0100"))
        for v in ["1e400", "NaN", "inf", "1e-400", "00000000000000000000000000000000000000000000000000000000000000000060"] {
            try check("value \(v)", C.record(C.heart, v, unit: "count/min", start: "2024-01-10 12:00:00 +0100"))
        }
        try check(
            "a second export date",
            C.record(C.steps, "5", source: "Late", start: "2024-03-01 12:00:00 +0100", end: "2024-03-01 12:01:00 +0100")
                + " <ExportDate value=\"2024-02-20 08:00:00 +0100\"/>\n", exportDate: "2024-04-01 08:00:00 +0100")
        let text = C.export(
            C.inWindow + C.record(C.steps, "50", start: "2024-03-30 23:30:00 +0100", end: "2024-03-31 03:30:00 +0200")
                + C.record(C.heart, "60", unit: "count/min", start: "2024-03-31 00:59:00 +0100")
                + C.record(C.heart, "61", unit: "count/min", start: "2024-10-27 02:30:00 +0100"))
        for zone in ["Europe/Amsterdam", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham"] {
            for d in try C.differences(text, zone: zone) { XCTFail("--timezone \(zone): \(d)") }
        }
    }

    /// The record walk's memo (`RecordStartTag.Memo`): devices at changing addresses found again
    /// by their rest; a second watch source met only through a rest the first one's records put
    /// in the memo, with heart rates only (named in the report only as a watch's: its first
    /// record must be read); a device the memo leaves to the census (an `m` in its address; a
    /// character reference); types alternating.
    func testDevicesAndTypesFoundAgain() throws {
        func watch(_ address: String, _ rest: String = "name:Apple Watch, model:Watch, hardware:Watch6,1") -> String {
            "&lt;&lt;HKDevice: 0x\(address)&gt;, \(rest)&gt;"
        }
        var body = ""
        for (i, address) in ["2", "2ab", "1f", "m1", "2"].enumerated() {
            let start = "2024-01-1\(i) 12:00:00 +0100", end = "2024-01-1\(i) 12:10:00 +0100"
            body += C.record(C.steps, "\(i + 5)", source: "Watch A", device: watch(address), start: start, end: end)
            body += C.record(C.steps, "\(i + 7)", source: "Watch A", device: watch(address + "0"), start: start, end: end)
            // Watch B only where the memo answers (not at `m1`, where the census tests the device).
            let b = address == "m1" ? "Watch A" : "Watch B"
            body += C.record(C.heart, "6\(i)", unit: "count/min", source: b, device: watch(address), start: start)
            body += C.record(
                C.steps, "\(i + 9)", device: "&lt;&lt;HKDevice: 0x\(address)&gt;, name:iPhone, model:iPhone&gt;", start: start, end: end)
        }
        try check("devices found again", body)
        try check(
            "a watch only a reference names",
            C.record(C.steps, "5", source: "Watch C", device: watch("3", "model&#58;Watch, x"), start: "2024-01-10 12:00:00 +0100")
                + C.record(C.steps, "6", source: "Watch C", device: watch("4", "model&#58;Watch, x"), start: "2024-01-11 12:00:00 +0100"))
    }
}
