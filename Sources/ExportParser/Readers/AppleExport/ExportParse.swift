/// What `ParseSession` feeds the filtered bytes of export.xml into: the sequential
/// `SAXDriver` or the chunked `ParallelSAXDriver`. Both play every element into the session's
/// `ExportElementHandler` in file order, and throw the first error in file order.
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `feed` takes the bytes as a
/// raw buffer because it hands them to libxml2; the buffer is valid for the call only and
/// implementations copy what they keep.
protocol ExportParse: AnyObject {
    func feed(_ bytes: UnsafeRawBufferPointer) throws
    /// Ends the parse; returns once the handler has seen every element.
    func finish() throws
    /// The input stops early (a NUL byte, a read error): throws the first error in the bytes fed
    /// so far, if there is one, so that it wins over the later one, as in a sequential read.
    func settle() throws
}
