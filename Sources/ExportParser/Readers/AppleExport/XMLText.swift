import Foundation

/// Text of an attribute value as the file meant it.
///
/// Without entity substitution (which the reader never turns on: it is how XML entity attacks
/// work), libxml2's SAX2 decodes `&lt;`, `&gt;`, `&quot;`, `&apos;` and character references in
/// attribute values but hands `&amp;` over as the character reference `&#38;`, so that a
/// later pass could not mistake it for the start of an entity. Nothing else of ours re-parses
/// the text, so the reference is turned back into `&` here.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `string` reads `count` bytes
/// at `p`, which the callers (the element handler, the interner) take from the tape being played.
enum XMLText {
    static func string(_ p: UnsafePointer<UInt8>, _ count: Int) -> String {
        var hasAmp = false
        for i in 0..<count where p[i] == 0x26 { hasAmp = true; break }
        let raw = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self)
        return hasAmp ? raw.replacingOccurrences(of: "&#38;", with: "&") : raw
    }
}
