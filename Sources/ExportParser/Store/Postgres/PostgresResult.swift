import CLibPQ
import Foundation

/// The rows of one statement (`PGresult*`), freed with it. Cells are read by row and column
/// index; in text form unless the statement asked for binary.
///
/// Unsafe code here: `textBytes` lends a cell's bytes from libpq's result buffer, valid while
/// this result lives (the export's row encoder copies them at once).
final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    var rows: Int { Int(PQntuples(result)) }
    /// Rows a command changed (`INSERT`, `DELETE`); 0 when it says none.
    var changed: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    func isNull(_ row: Int, _ column: Int32) -> Bool { PQgetisnull(result, Int32(row), column) == 1 }

    func text(_ row: Int, _ column: Int32) -> String? {
        isNull(row, column) ? nil : String(cString: PQgetvalue(result, Int32(row), column))
    }

    func int(_ row: Int, _ column: Int32) -> Int64 { text(row, column).flatMap { Int64($0) } ?? 0 }

    func real(_ row: Int, _ column: Int32) -> Double { text(row, column).flatMap { Double($0) } ?? 0 }

    /// A binary cell's bytes (a `bytea` of a binary result).
    func bytes(_ row: Int, _ column: Int32) -> [UInt8] {
        let count = Int(PQgetlength(result, Int32(row), column))
        guard count > 0, let p = PQgetvalue(result, Int32(row), column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: count))
    }

    func textBytes(_ row: Int, _ column: Int32) -> (UnsafePointer<UInt8>?, Int) {
        guard !isNull(row, column), let p = PQgetvalue(result, Int32(row), column) else { return (nil, 0) }
        return (UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), Int(PQgetlength(result, Int32(row), column)))
    }

    /// A column's type as the export's encoder sorts cells (by PostgreSQL's type oid).
    func type(_ column: Int32) -> ExportCellType {
        switch PQftype(result, column) {
        case 20, 21, 23: .integer  // int8, int2, int4
        case 700, 701, 1700: .real  // float4, float8, numeric
        default: .text
        }
    }
}
