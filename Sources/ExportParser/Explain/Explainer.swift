/// Builds an explanation from one input's attributed day, by the kind of the field.
enum Explainer {
    static func explain(_ d: AttributedDay, field: OutputField) -> Explanation {
        var e = Explanation(date: CivilDate.isoDate(d.attribution.day), field: field, value: d.day.flatMap(field.read), rule: "")
        let path = field.payloadPath ?? ""
        let metric = ExplainedField.metric(of: field)?.index ?? -1
        switch field.kind {
        case .sum:
            SumExplainer.explain(d, metric: metric, into: &e)
        case .sleepDuration, .sleepTime:
            SleepExplainer.explain(d, key: String(path.dropFirst("sleep.".count)), into: &e)
        case .text where path.hasPrefix("sleep."):
            SleepExplainer.explain(d, key: String(path.dropFirst("sleep.".count)), into: &e)
        case .workoutsCount:
            WorkoutExplainer.explain(d, into: &e)
        case .avg, .min, .max, .count, .latest, .nightAvg, .workoutAvg:
            SampleRuleExplainer.explain(d, metric: metric, kind: field.kind, into: &e)
        case .date, .text:
            e.rule = "\(field.kind.rawValue): the day itself"
        }
        return e
    }
}
