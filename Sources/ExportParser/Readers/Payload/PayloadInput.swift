import Foundation

/// Payload JSON given to `convert` (a `DATE.json`, a `payloads.json`, an app's `{"data": [...]}`
/// body, a folder of them): refused with one sentence, exit 1, nothing written (docs/usage.md,
/// "Payload JSON is not an input"). A payload is convert's output: its days are rounded to the
/// wire's decimals, carry no samples, and an app's hold keys the field table does not know, so
/// passing them through could not make the store's full-precision day values, its records, or
/// the same bytes; a partial day (the workouts alone, as before) would be worse than none.
enum PayloadInput {
    /// Whether the file's first bytes are payload JSON rather than Health Auto Export JSON (both
    /// may start `{"data"`: `PayloadSniffer`).
    static func isPayload(path: String) throws -> Bool {
        PayloadSniffer.isPayload([UInt8](try InputFile.head(path: path, count: 65_536)))
    }

    /// The one sentence for payload JSON given as an input (a file, or a folder of nothing else).
    static func refusal(_ path: String) -> InputError {
        InputError(
            file: path,
            message:
                "is payload JSON (what convert writes and the app sends), not an input convert reads: its days are already made; send them with push --payloads, compare them with compare, or convert the export or Health Auto Export file they came from"
        )
    }

    /// Why a payload file in an input folder is skipped.
    static let skipReason = "payload JSON (convert's output, not an input)"
}
