/// One parameter of a PostgreSQL statement: always bound (`PQexecParams`), never written into
/// the SQL text.
enum PostgresValue {
    case text(String?)
    case int(Int64)
    /// Bytes sent in binary form (a `bytea`), read in place during the call.
    case bytes(UnsafeRawBufferPointer)
}
