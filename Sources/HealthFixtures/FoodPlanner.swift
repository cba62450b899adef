import ExportParser

/// What the person ate and drank: foods logged by a food app, each as a `Correlation` of its
/// nutrients with `HKFoodType` metadata (the nutrient records also written at top level, as the
/// Health app writes them), and drinks entered by hand on weekend evenings. A snack of two foods
/// at one instant with the same protein checks that records told apart only by their metadata
/// both count.
enum FoodPlanner {
    static let q = FixtureRecord.quantity

    /// Per serving: kcal, and tenths of a gram of protein, carbohydrate, fat, fibre and sugar;
    /// potassium and cholesterol in mg.
    struct Food {
        var name: String
        var kcal: Int
        var tenths: [Int]
        var potassium: Int
        var cholesterol: Int
    }

    static let foods: [Food] = [
        Food(name: "Oatmeal with milk", kcal: 310, tenths: [120, 480, 75, 55, 140], potassium: 420, cholesterol: 12),
        Food(name: "Scrambled eggs", kcal: 200, tenths: [140, 20, 150, 0, 15], potassium: 150, cholesterol: 370),
        Food(name: "Chicken salad", kcal: 420, tenths: [380, 150, 220, 60, 60], potassium: 700, cholesterol: 95),
        Food(name: "Lentil soup", kcal: 330, tenths: [180, 490, 60, 150, 55], potassium: 730, cholesterol: 0),
        Food(name: "Salmon with rice", kcal: 610, tenths: [390, 620, 210, 25, 10], potassium: 820, cholesterol: 85),
        Food(name: "Pasta bolognese", kcal: 680, tenths: [320, 820, 220, 60, 110], potassium: 760, cholesterol: 70),
        Food(name: "Banana", kcal: 105, tenths: [13, 270, 4, 31, 144], potassium: 422, cholesterol: 0),
        Food(name: "Dates", kcal: 200, tenths: [13, 540, 1, 48, 480], potassium: 500, cholesterol: 0),
    ]

    static let nutrients: [(field: String, type: String, unit: String)] = [
        ("protein_g", "DietaryProtein", "g"), ("carbs_g", "DietaryCarbohydrates", "g"), ("total_fat", "DietaryFatTotal", "g"),
        ("fiber_g", "DietaryFiber", "g"), ("sugar_g", "DietarySugar", "g"),
    ]

    static func plan(_ c: inout DayContext) {
        var r = c.random(5)
        let strengthDay = c.plan.workouts.contains { $0.kind == .strength }
        let meals: [(name: String, minute: Int, foods: [Int])] = [
            ("Breakfast", 440, [r.int(0...1)]),
            ("Lunch", strengthDay ? 830 : 765, [r.int(2...3)]),
            ("Snacks", 940, [6, 7]),
            ("Dinner", 1_195, [r.int(4...5)]),
        ]
        var kcal = 0, tenths = [0, 0, 0, 0, 0], potassium = 0, cholesterol = 0
        for meal in meals {
            let t = c.at(meal.minute)
            for index in meal.foods {
                let food = foods[index]
                kcal += food.kcal
                for i in 0..<5 { tenths[i] += food.tenths[i] }
                potassium += food.potassium
                cholesterol += food.cholesterol
                let metadata: [(key: String, value: String)] = [("HKFoodType", food.name), ("Meal", meal.name)]
                var members: [FixtureRecord] = []
                func member(_ type: String, _ unit: String, _ value: String) {
                    members.append(
                        FixtureRecord(
                            type: q + type, source: .foodApp, unit: unit, value: value, start: t, end: t, created: t + 40,
                            metadata: metadata))
                }
                member("DietaryEnergyConsumed", c.units.energy.name, c.units.energy.text(Double(food.kcal)))
                for (i, n) in nutrients.enumerated() {
                    member(n.type, n.unit, FixtureNumber.text(Double(food.tenths[i]) / 10, decimals: 1))
                }
                member("DietaryPotassium", "mg", String(food.potassium))
                member("DietaryCholesterol", "mg", String(food.cholesterol))
                c.records += members
                c.correlations.append(
                    FixtureCorrelation(
                        type: "HKCorrelationTypeIdentifierFood", source: .foodApp, start: t, end: t,
                        created: t + 40, metadata: metadata, members: members))
            }
        }
        c.set("dietary_energy_kj", Double(kcal))
        for (i, n) in nutrients.enumerated() { c.set(n.field, Double(tenths[i]) / 10) }
        c.set("potassium_mg", Double(potassium))
        c.set("cholesterol", Double(cholesterol))
        // Friday and Saturday evenings (1970-01-01 was a Thursday).
        let weekday = ((c.day + 4) % 7 + 7) % 7
        if weekday == 5 || weekday == 6 {
            let drinks = r.int(1...2)
            for i in 0..<drinks {
                let t = c.at(1_170 + 60 * i)
                c.add(
                    q + "NumberOfAlcoholicBeverages", .phone, unit: "count", value: "1", start: t, end: t,
                    metadata: [("HKWasUserEntered", "1")])
            }
            c.set("alcohol_drinks", Double(drinks))
        }
    }
}
