/// The `value` of a non-aggregated `sleep_analysis` segment and the HealthKit category value it
/// stands for. HAE writes `InBed` (no space) in real files while its docs write `In Bed`;
/// `Asleep` is HealthKit's unspecified asleep (docs/hae.md, "Sleep").
///
/// Unsafe code here (docs/architecture.md, "Where unsafe code lives"): `parse` reads `count` bytes
/// at `p` (a yajl or tape string, valid for the call) into its own array.
enum HAESleepStage: UInt8 {
    case core, deep, rem, awake, inBed, unspecified, unknown

    var categoryValue: String? {
        switch self {
        case .core: return "HKCategoryValueSleepAnalysisAsleepCore"
        case .deep: return "HKCategoryValueSleepAnalysisAsleepDeep"
        case .rem: return "HKCategoryValueSleepAnalysisAsleepREM"
        case .awake: return "HKCategoryValueSleepAnalysisAwake"
        case .inBed: return "HKCategoryValueSleepAnalysisInBed"
        case .unspecified: return "HKCategoryValueSleepAnalysisAsleepUnspecified"
        case .unknown: return nil
        }
    }

    /// Matches the value bytes case-insensitively, ignoring spaces (`In Bed`, `inbed`, `REM`, `Rem`).
    static func parse(_ p: UnsafePointer<UInt8>, _ count: Int) -> HAESleepStage {
        var folded: [UInt8] = []
        folded.reserveCapacity(count)
        for i in 0..<count where p[i] != 0x20 && p[i] != 0x5F { folded.append(p[i] | 0x20) }
        switch String(decoding: folded, as: UTF8.self) {
        case "core", "asleepcore": return .core
        case "deep", "asleepdeep": return .deep
        case "rem", "asleeprem": return .rem
        case "awake": return .awake
        case "inbed": return .inBed
        case "asleep", "unspecified", "asleepunspecified": return .unspecified
        default: return .unknown
        }
    }
}
