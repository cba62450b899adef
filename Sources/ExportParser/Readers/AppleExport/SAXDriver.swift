import CLibXML2

/// libxml2's SAX2 push parser, fed in chunks, calling an `ExportElementHandler` for every start
/// and end tag. Foundation's XMLParser is not an option: it crashes on the ATTLIST declarations
/// every export has, and is 2.4× slower (reference/swift-notes.md).
final class SAXDriver {
    private var ctxt: xmlParserCtxtPtr?
    private var sax = xmlSAXHandler()
    let handler: ExportElementHandler
    let file: String
    /// The first fatal problem: a parser error, or one the handler raised (wrong root element).
    private(set) var failure: InputError?
    /// Set while the parser is told the input has ended.
    private var terminating = false

    private static let sax2Magic: UInt32 = 0xDEED_BEAF

    init(file: String, handler: ExportElementHandler) {
        self.file = file
        self.handler = handler
        sax.initialized = Self.sax2Magic
        sax.startElementNs = { ctx, localname, _, _, _, _, nbAttributes, _, attributes in
            let d = Unmanaged<SAXDriver>.fromOpaque(ctx!).takeUnretainedValue()
            d.handler.start(name: localname!, attributeCount: Int(nbAttributes), attributes: attributes)
            if let problem = d.handler.fatalProblem, d.failure == nil {
                d.failure = InputError(file: d.file, location: d.location(), message: problem)
                xmlStopParser(d.ctxt)
            }
        }
        sax.endElementNs = { ctx, localname, _, _ in
            let d = Unmanaged<SAXDriver>.fromOpaque(ctx!).takeUnretainedValue()
            d.handler.end(name: localname!)
        }
        sax.serror = { userData, error in
            guard let userData, let error else { return }
            let d = Unmanaged<SAXDriver>.fromOpaque(userData).takeUnretainedValue()
            d.record(error.pointee)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        ctxt = xmlCreatePushParserCtxt(&sax, me, nil, 0, file)
        let options = Int32(XML_PARSE_HUGE.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue)
        xmlCtxtUseOptions(ctxt, options)
        handler.locate = { [unowned self] in self.location() }
    }

    deinit {
        if let ctxt { xmlFreeParserCtxt(ctxt) }
    }

    /// The parser's current line and column.
    func location() -> InputLocation {
        guard let ctxt else { return InputLocation() }
        return InputLocation(line: Int(xmlSAX2GetLineNumber(ctxt)), column: Int(xmlSAX2GetColumnNumber(ctxt)))
    }

    func feed(_ bytes: UnsafeRawBufferPointer) throws {
        guard failure == nil else { throw failure! }
        var offset = 0
        // xmlParseChunk takes an Int32 size; chunks are small, but be exact.
        while offset < bytes.count {
            let n = min(bytes.count - offset, 1 << 24)
            let rc = xmlParseChunk(ctxt, bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: CChar.self), Int32(n), 0)
            offset += n
            try check(rc)
        }
    }

    func finish() throws {
        guard failure == nil else { throw failure! }
        terminating = true
        let rc = xmlParseChunk(ctxt, nil, 0, 1)
        try check(rc)
        if !handler.sawRoot {
            throw InputError(file: file, location: location(), message: "no root element: the file ends before <HealthData> (empty or not an export)")
        }
    }

    private func check(_ rc: Int32) throws {
        if let failure { throw failure }
        if rc != 0 {
            throw InputError(file: file, location: location(), message: "malformed XML (libxml2 error \(rc))")
        }
    }

    private func record(_ e: xmlError) {
        guard e.level == XML_ERR_FATAL || e.level == XML_ERR_ERROR, failure == nil else { return }
        var message = e.message.map { String(cString: $0) } ?? "XML error \(e.code)"
        message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        if terminating {
            // Only the end of input is left to parse: the document stops in the middle.
            message += " (the file ends before the document does: is it truncated?)"
        }
        failure = InputError(file: file, location: InputLocation(line: Int(e.line), column: Int(e.int2)), message: "malformed XML: " + message)
    }
}

import Foundation
