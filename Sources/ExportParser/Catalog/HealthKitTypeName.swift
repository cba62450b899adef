/// A HealthKit identifier without its prefix (`StepCount`), for messages and the summary.
enum HealthKitTypeName {
    static func short(_ t: String) -> String {
        for p in ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier", "HKDataType"] where t.hasPrefix(p) {
            return String(t.dropFirst(p.count))
        }
        return t
    }
}
