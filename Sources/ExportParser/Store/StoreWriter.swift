import CSQLite
import Foundation

/// One thing the reader handed the store, queued for the writer thread.
enum StoreItem: Sendable {
    /// Names that samples after this item refer to by id, the next ids in order (`StoreSample`).
    case names([String])
    case sample(StoreSample)
    indirect case correlation(Correlation)
    indirect case workout(Workout)
    case activitySummary(ActivitySummary)
    case me(Me)
    case extra(ExtraItem)
    indirect case sleepSummary(SleepSummary)
    case exportDate(Timestamp)
}

/// Writes decoded items of one import with prepared statements and raw binds, inside the
/// import's open transaction. Runs on the session's writer thread; owns no transaction itself.
/// Used by one thread at a time (the writer thread, then, after it is done, the caller).
// @unchecked Sendable: used by the writer thread, then by the caller after it ends (its connection's `confinement`).
final class StoreWriter: @unchecked Sendable {
    let db: SQLiteConnection
    private let rows: StoreRows
    private let names: StoreNames
    private let samples: SampleRows
    private let correlations: CorrelationRows
    private let workouts: WorkoutRows
    private let person: PersonItemRows
    var exportDate: Timestamp?

    /// One group a table family, each preparing its own statements.
    init(db: SQLiteConnection, person: String, importID: Int64) throws {
        self.db = db
        rows = StoreRows(db: db, person: person, importID: importID)
        names = try StoreNames(rows: rows)
        samples = try SampleRows(rows: rows, names: names)
        correlations = try CorrelationRows(rows: rows, names: names)
        workouts = try WorkoutRows(rows: rows, names: names)
        self.person = try PersonItemRows(rows: rows)
    }

    var rowsAdded: [String: Int] { rows.added }
    var samplesRead: Int { samples.samplesRead }
    var samplesAdded: Int { samples.samplesAdded }
    /// Samples read and added by type.
    var countsByType: [String: (read: Int, added: Int)] { names.countsByType }

    func write(_ item: consuming StoreItem) throws {
        switch consume item {
        case .names(let n): names.add(n)
        case .sample(let s): try samples.write(s)
        case .correlation(let c): try correlations.write(c)
        case .workout(let w): try workouts.write(w)
        case .activitySummary(let a): try person.write(a)
        case .me(let m): try person.write(m)
        case .extra(let e): try person.write(e)
        case .sleepSummary(let n): try person.write(n)
        case .exportDate(let t): exportDate = t
        }
    }

    /// Writes every row still held back. The writer thread calls it after the last item.
    func flush() throws { try samples.flush() }
}
