/// Maps HAE's workout `name` (the display name the Fitness app shows, e.g. "Outdoor Run") to a
/// HealthKit `HKWorkoutActivityType…` name, so HAE workouts and export.xml workouts share types.
///
/// The table: explicit entries for display names that differ from the HealthKit name (indoor /
/// outdoor variants, swims, abbreviations), then every HealthKit activity name itself with its
/// words spaced ("Traditional Strength Training", "Tennis"). Matching ignores case, spaces and
/// punctuation. A name found nowhere maps to `Other`; the reader keeps the display name in the
/// workout's metadata under `HAEName`. Display names are localised by iOS: only English ones are
/// listed, other languages come out as `Other` with their name kept.
///
/// | display name(s)                                   | HKWorkoutActivityType          |
/// |---------------------------------------------------|--------------------------------|
/// | Outdoor Run, Indoor Run, Running, Run, Treadmill   | Running                        |
/// | Outdoor Walk, Indoor Walk, Walking, Walk           | Walking                        |
/// | Outdoor Cycle, Indoor Cycle, Cycling, Cycle, Bike  | Cycling                        |
/// | Pool Swim, Open Water Swim, Swimming, Swim         | Swimming                       |
/// | HIIT, High Intensity Interval Training             | HighIntensityIntervalTraining  |
/// | Strength Training, Traditional Strength Training   | TraditionalStrengthTraining    |
/// | Functional Strength Training                       | FunctionalStrengthTraining     |
/// | Stair Stepper, Stair Climbing                      | StairClimbing                  |
/// | Dance                                              | Dance                          |
/// | Multisport, Swim Bike Run, Triathlon               | SwimBikeRun                    |
/// | Wheelchair Walk Pace / Run Pace                    | WheelchairWalkPace / …RunPace  |
/// | any HealthKit name spaced or not (Hiking, Yoga, Elliptical, Rowing, Core Training, Cooldown, Pilates, Tennis, …) | itself |
/// | anything else                                      | Other (+ metadata HAEName)     |
enum HAEWorkoutActivityTypes {
    /// HealthKit activity names (without the `HKWorkoutActivityType` prefix), iOS 17 list.
    static let healthKitNames: [String] = [
        "AmericanFootball", "Archery", "AustralianFootball", "Badminton", "Baseball", "Basketball", "Bowling",
        "Boxing", "Climbing", "Cricket", "CrossTraining", "Curling", "Cycling", "Dance", "Elliptical",
        "EquestrianSports", "Fencing", "Fishing", "FunctionalStrengthTraining", "Golf", "Gymnastics", "Handball",
        "Hiking", "Hockey", "Hunting", "Lacrosse", "MartialArts", "MindAndBody", "PaddleSports", "Play",
        "PreparationAndRecovery", "Racquetball", "Rowing", "Rugby", "Running", "Sailing", "SkatingSports",
        "SnowSports", "Soccer", "Softball", "Squash", "StairClimbing", "SurfingSports", "Swimming",
        "TableTennis", "Tennis", "TrackAndField", "TraditionalStrengthTraining", "Volleyball", "Walking",
        "WaterFitness", "WaterPolo", "WaterSports", "Wrestling", "Yoga", "Barre", "CoreTraining",
        "CrossCountrySkiing", "DownhillSkiing", "Flexibility", "HighIntensityIntervalTraining", "JumpRope",
        "Kickboxing", "Pilates", "Snowboarding", "Stairs", "StepTraining", "WheelchairWalkPace",
        "WheelchairRunPace", "TaiChi", "MixedCardio", "HandCycling", "DiscSports", "FitnessGaming",
        "CardioDance", "SocialDance", "Pickleball", "Cooldown", "SwimBikeRun", "Transition",
        "UnderwaterDiving", "Other",
    ]

    /// Display names whose HealthKit name is spelled differently (keys already folded).
    static let aliases: [String: String] = [
        "outdoorrun": "Running", "indoorrun": "Running", "run": "Running", "treadmill": "Running",
        "outdoorwalk": "Walking", "indoorwalk": "Walking", "walk": "Walking",
        "outdoorcycle": "Cycling", "indoorcycle": "Cycling", "cycle": "Cycling", "bike": "Cycling", "biking": "Cycling",
        "poolswim": "Swimming", "openwaterswim": "Swimming", "swim": "Swimming",
        "hiit": "HighIntensityIntervalTraining", "strengthtraining": "TraditionalStrengthTraining",
        "stairstepper": "StairClimbing", "multisport": "SwimBikeRun", "triathlon": "SwimBikeRun",
        "skating": "SkatingSports", "surfing": "SurfingSports", "paddling": "PaddleSports",
        "mixedmetaboliccardiotraining": "MixedCardio", "martialart": "MartialArts", "cooldown": "Cooldown",
    ]

    private static let byFolded: [String: String] = {
        var d = aliases
        for n in healthKitNames { d[fold(n)] = n }
        return d
    }()

    /// Lower-case letters and digits only: "Outdoor Run" → "outdoorrun".
    static func fold(_ s: String) -> String {
        String(String.UnicodeScalarView(s.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }))
    }

    /// The HealthKit activity name for a display name, or nil when there is none.
    static func healthKitName(forDisplayName name: String) -> String? {
        byFolded[fold(name)]
    }
}
