import Foundation

/// Refuses inputs that cannot make a migration check, before and after reading them: a side
/// given the other side's kind of file, both sides the same bytes, or both sides' values
/// identical everywhere where the HAE side is payload JSON. Each is a person's mix-up (two files swapped, one file given twice) that
/// would otherwise read as "native matches HAE" and switch HAE off on no evidence. Each ends the
/// run with one sentence (exit 2). Payload JSON is allowed on either side: it can hold either.
enum CompareInputCheck {
    /// Before reading: whether both sides are the same bytes, then the kind of every input.
    static func checkFiles(native: [String], hae: [String]) throws {
        if try sameBytes(native, hae) {
            throw UsageError(
                nil,
                "--native and --hae are the same bytes (\((native + hae).joined(separator: ", "))): a check needs the Health app's export on one side and Health Auto Export's data on the other"
            )
        }
        for path in native where kind(path) == .hae {
            throw UsageError(
                "--native",
                "\(path) is a Health Auto Export file, given as --native: the native side is the Health app's export (export.zip or export.xml) or payload JSON; give this file as --hae"
            )
        }
        for path in hae where kind(path) == .appleXML || kind(path) == .appleZip {
            throw UsageError(
                "--hae",
                "\(path) is an Apple Health export, given as --hae: the HAE side is a Health Auto Export .json file or payload JSON; give this file as --native"
            )
        }
    }

    /// After comparing, when the HAE side holds payload JSON (whose origin its bytes do not tell):
    /// the sentence when, on every date of the window both sides have, every value both state is
    /// identical and neither states a value the other lacks. A payload converted from the other
    /// side's own file agrees with it to the last digit; HAE's day buckets never do (HAE sums and
    /// rounds them its own way). An export beside HAE JSON is not judged so: HAE with Summarize
    /// off carries the very samples of the export, and gives identical values when all is well.
    /// Dates only one side has are left out: the same data with its last dates cut off is still
    /// the same data.
    static func identicalValues(_ c: Comparison, native: [String: ComparableDay], hae: [String: ComparableDay], haeInputs: [String])
        -> String?
    {
        guard haeInputs.contains(where: PayloadReader.isPayloadInput) else { return nil }
        var both = 0
        var dates = Set<String>()
        for r in c.rows where native[r.date] != nil && hae[r.date] != nil {
            switch (r.native, r.hae) {
            case (let a?, let b?):
                guard sameOnTheWire(a, b, decimals: r.decimals) else { return nil }
                both += 1
                dates.insert(r.date)
            case (nil, nil): continue
            default:
                // A count only the export states (HAE's buckets hold none) says nothing.
                if r.status == .notComparable { continue }
                return nil
            }
        }
        guard both > 0, let first = dates.min(), let last = dates.max() else { return nil }
        let span = first == last ? first : "\(first) … \(last)"
        return
            "native and HAE have identical values on every compared field of all \(dates.count) \(dates.count == 1 ? "date" : "dates") (\(span)): that is the same data given twice (the same export as export.zip and export.xml, or payload JSON converted from the other side's file), not the Health app's export beside Health Auto Export's, which always differ a little (HAE sums its own buckets and rounds); give the export as --native and the HAE file as --hae"
    }

    /// Whether two values are the same once both are written with the payload's `decimals`: a
    /// side read from an export is at full precision, payload JSON is rounded (docs/payload.md),
    /// so the export beside its own converted payloads differs only below the last decimal.
    /// Judged as |a − b| ≤ half a unit of the last decimal (and a hair more for binary
    /// fractions), not by rounding each, which a value such as 2.345 (2.34499… in binary) would
    /// round one way and the encoder's decimal text the other.
    static func sameOnTheWire(_ a: OutputField.Scalar, _ b: OutputField.Scalar, decimals: Int) -> Bool {
        guard case .number(let x) = a, case .number(let y) = b else { return a == b }
        let halfUnit = 0.5 * pow(10, -Double(decimals))
        return abs(x - y) <= halfUnit * (1 + 1e-9) + 1e-12 * max(abs(x), abs(y))
    }

    /// Two sides that name sources and share none: one plain line above the verdict
    /// (docs/compare.md, "Two people"). Names are compared without case and with ’ as ', so
    /// "Anna’s Apple Watch" from one reader is "Anna's Apple Watch" from another; the HAE
    /// reader's stand-in for an unnamed workout source (`Health Auto Export`) names nobody's
    /// device and is left out. A side that names no source says nothing either way.
    static func sharedSources(_ native: CompareSideSummary, _ hae: CompareSideSummary) -> String? {
        func names(_ side: CompareSideSummary) -> Set<String> {
            Set(
                side.sources.filter { $0 != HAEWorkoutMapper.defaultSource }.map {
                    $0.lowercased().replacingOccurrences(of: "’", with: "'")
                })
        }
        let a = names(native), b = names(hae)
        guard !a.isEmpty, !b.isEmpty, a.isDisjoint(with: b) else { return nil }
        return
            "the two sides share no source or device (native: \(native.sources.joined(separator: ", ")); HAE: \(hae.sources.filter { $0 != HAEWorkoutMapper.defaultSource }.joined(separator: ", "))): are they the same person's data?"
    }

    /// The format of an input by its first bytes; a folder by its first `.json` file; nil for
    /// payload JSON and for anything the readers will refuse with their own message.
    static func kind(_ path: String) -> InputFormat? {
        if PayloadReader.isPayloadInput(path) { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            return PayloadReader.jsonFiles(in: path).first.flatMap { try? InputDetector.detect(path: path + "/" + $0) }
        }
        return try? InputDetector.detect(path: path)
    }

    /// Whether the two sides are the same set of bytes: the regular files of each side (a folder's
    /// files included), compared by size first and hashed only when the sizes agree, so that two
    /// different exports cost no read.
    static func sameBytes(_ native: [String], _ hae: [String]) throws -> Bool {
        let a = files(native), b = files(hae)
        guard !a.isEmpty, a.count == b.count, a.map(\.size).sorted() == b.map(\.size).sorted() else { return false }
        if Set(a.map(\.path)) == Set(b.map(\.path)) { return true }
        let x = try a.map { try FileDigest.sha256(path: $0.path) }.sorted()
        let y = try b.map { try FileDigest.sha256(path: $0.path) }.sorted()
        return x == y
    }

    /// The regular files of some inputs with their sizes (resolved paths, a folder's files
    /// in name order); inputs that do not exist are left to the readers.
    static func files(_ inputs: [String]) -> [(path: String, size: UInt64)] {
        var out: [(path: String, size: UInt64)] = []
        func add(_ path: String) {
            let p = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            if let size = (try? FileManager.default.attributesOfItem(atPath: p))?[.size] as? NSNumber {
                out.append((p, size.uint64Value))
            }
        }
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []).sorted()
                for name in names where !name.hasPrefix(".") {
                    var sub: ObjCBool = false
                    if FileManager.default.fileExists(atPath: input + "/" + name, isDirectory: &sub), !sub.boolValue {
                        add(input + "/" + name)
                    }
                }
            } else {
                add(input)
            }
        }
        return out
    }
}
