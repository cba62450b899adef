import Foundation

/// One person of `compare --everyone` through exactly the single-person rules: the request
/// `compare --store FILE --person P` would make, its report (written under the person's own
/// folder), then the person's status from that report. Nothing of one person stops the run: an
/// error becomes that person's reason.
enum FleetCheck {
    static func person(_ person: String, sides: PersonSides, template: CompareRequest, outDir: String) -> FleetPerson {
        var request = template
        request.person = person
        request.everyone = false
        request.shard = nil
        let folder = FleetPerson.folder(person)
        request.outDir = outDir + "/" + folder
        let monitoring = template.monitor != nil
        // A side with nothing at all is not enough data, named as such; the single-person check
        // ends with an error there (exit 2), and here with no report.
        if !sides.hasNative || (!sides.hasHAE && !monitoring) {
            let missing =
                !sides.hasNative
                ? "no native data (no app payload received, no export imported)"
                : "no HAE data (no Health Auto Export body received, no HAE import)"
            return FleetPerson(person: person, status: .notEnoughData, exitStatus: 2, reason: missing, causes: [missing])
        }
        do {
            let outcome = try CompareJob(request).run()
            var p = classify(outcome.report, person: person)
            p.report = folder + "/compare.html"
            if let end = outcome.report.monitorEnd {
                p.judgedDate = CivilDate.isoDate(end.day)
                p.judgedZone = end.zone
            }
            return p
        } catch let e as UsageError where e.option == "--from" {
            // No date with data on both sides: nothing to compare yet.
            return FleetPerson(
                person: person, status: .notEnoughData, exitStatus: 2, reason: e.message, causes: ["no date with data on both sides"])
        } catch let e as UserFacingError {
            return FleetPerson(
                person: person, status: .notReady, exitStatus: 2, reason: "could not be compared: \(e)",
                causes: ["data that could not be read"])
        } catch {
            return FleetPerson(
                person: person, status: .notReady, exitStatus: 2, reason: "could not be compared: \(error)",
                causes: ["data that could not be read"])
        }
    }

    /// The status a report gives: `app-stopped` when the monitor found the app stopped;
    /// `not-enough-data` when the check fails only because fewer than `--days` dates have data;
    /// `not-ready` when it fails otherwise; else `ready`.
    static func classify(_ report: CompareReport, person: String) -> FleetPerson {
        var byField: [String: FleetPerson.FailingField] = [:]
        var order: [String] = []
        func fail(_ field: String, _ date: String, _ text: String) {
            if byField[field] == nil {
                byField[field] = FleetPerson.FailingField(field: field, dates: [], text: text)
                order.append(field)
            }
            if !byField[field]!.dates.contains(date) { byField[field]!.dates.append(date) }
        }
        var causes: [String] = []
        func cause(_ c: String) { if !causes.contains(c) { causes.append(c) } }
        var holding: [String] = []
        for v in report.verdicts {
            switch v.status {
            case .pass: holding.append(v.field)
            case .oneSided: continue
            case .fail:
                for e in v.exceptions where e.status == .mismatch || v.field == "workouts" { fail(v.field, e.date, v.sentence) }
                cause(v.field == "workouts" ? "workouts on one side only" : "\(GapFinder.name(v.field)) out of tolerance")
            }
        }
        var stopped: CompareGap?
        for g in report.gaps {
            switch g.kind {
            case .stopped:
                stopped = g
                cause("the app stopped sending")
            case .missingDate:
                fail("(date)", g.date, g.sentence)
                cause("no \(g.side.name) data on a date")
            case .fieldStopped:
                fail(g.field ?? "(date)", g.date, g.sentence)
                cause("\(GapFinder.name(g.field ?? "")) stopped from \(g.side.name)")
            case .fieldMissing:
                fail(g.field ?? "(date)", g.date, g.sentence)
                cause("\(GapFinder.name(g.field ?? "")) missing from \(g.side.name)")
            }
        }
        let failing = order.map { byField[$0]! }
        let nativeDates = report.comparison?.nativeDates, haeDates = report.comparison?.haeDates
        let exit: Int32 = report.failed ? 1 : 0
        var p = FleetPerson(person: person, status: .ready, exitStatus: exit, reason: "", failing: failing, holding: holding)
        p.nativeDates = nativeDates
        p.haeDates = haeDates
        if let stopped {
            p.status = .appStopped
            p.reason = stopped.sentence
        } else if let short = report.notEnoughDates, failing.isEmpty, !(report.comparison?.failed ?? false) {
            p.status = .notEnoughData
            p.reason = "data on \(short.have) of the \(short.need) dates"
            cause("fewer dates than --days")
        } else if report.failed {
            p.status = .notReady
            let shown = failing.prefix(3).map { f in
                f.field == "(date)" ? f.text : "\(GapFinder.name(f.field)) on \(f.dates.joined(separator: ", "))"
            }
            p.reason = shown.joined(separator: "; ") + (failing.count > 3 ? "; \(failing.count - 3) more" : "")
            if p.reason.isEmpty { p.reason = report.gaps.first?.sentence ?? "the check fails" }
        } else {
            p.reason =
                report.mode == .validate
                ? "\(holding.count) fields within tolerance on \(min(nativeDates ?? 0, haeDates ?? 0)) dates"
                : "every field delivered on \(report.monitored.map { "\($0.from) … \($0.to)" } ?? "the monitored dates")"
        }
        p.causes = causes
        return p
    }
}
