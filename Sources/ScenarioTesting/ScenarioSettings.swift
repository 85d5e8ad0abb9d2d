#if canImport(Testing)
    import Foundation
    import ScenarioKit
    import Testing

    /// How `check` runs a scenario besides its ``RunOptions``: repeated, explored under several
    /// schedules or replaying one, and the folder its reports go to. What `scenario run` takes as
    /// `--repeat`, `--schedules`, `--seed`, `--replay-schedule` and its report options.
    ///
    /// As a Swift Testing trait, on a test or a suite:
    ///
    /// ```swift
    /// @Test(.scenarios(schedules: 100, reports: "Reports"), arguments: ScenarioFile.all(in: "Scenarios"))
    /// func scenario(_ file: ScenarioFile) async { await file.check(with: MyDriver()) }
    /// ```
    ///
    /// The environment overrides it, so CI or a replay needs no code change: any of
    /// `SCENARIO_REPEAT`, `SCENARIO_SCHEDULES`, `SCENARIO_SEED` and `SCENARIO_REPLAY_SCHEDULE`
    /// replaces how the trait runs, and `SCENARIO_REPORTS` where it reports.
    public struct ScenarioSettings: TestTrait, SuiteTrait, Sendable, Hashable {
        /// Runs of each scenario; a run that differs from the first fails it.
        public var repeatCount: Int?
        /// Schedules each scenario runs under (first in, first out, then PCT schedules).
        public var schedules: Int?
        /// The seed schedules are drawn from (1 unless given); only with `schedules`.
        public var seed: UInt64?
        /// Exactly the schedule a failure printed (`SEED:INDEX`).
        public var replaySchedule: String?
        /// The folder the JUnit, JSON and HTML reports go to; relative to the package root (the
        /// nearest folder with a `Package.swift` above the scenario file).
        public var reports: String?

        /// Settings; each one left out keeps the default (run once, no report).
        public init(
            repeat repeatCount: Int? = nil, schedules: Int? = nil, seed: UInt64? = nil, replay replaySchedule: String? = nil,
            reports: String? = nil
        ) {
            self.repeatCount = repeatCount
            self.schedules = schedules
            self.seed = seed
            self.replaySchedule = replaySchedule
            self.reports = reports
        }

        /// Set on a suite, the settings reach every test in it.
        public var isRecursive: Bool { true }

        /// The environment variable of each setting.
        enum Variable {
            static let repeatCount = "SCENARIO_REPEAT"
            static let schedules = "SCENARIO_SCHEDULES"
            static let seed = "SCENARIO_SEED"
            static let replaySchedule = "SCENARIO_REPLAY_SCHEDULE"
            static let reports = "SCENARIO_REPORTS"
        }

        /// How a scenario runs, once the settings are checked.
        enum Mode: Sendable, Hashable {
            case once
            case repeated(Int)
            case explored(Exploration)
        }

        /// Why settings cannot be used: said as `scenario run` says it, naming where each came from.
        struct Problem: Error, CustomStringConvertible {
            var description: String
        }

        /// Settings read from the environment (empty variables are unset), with a problem for each
        /// count or seed that is not a number it can be; such a value is left unset.
        static func environment(_ variables: [String: String]) -> (settings: ScenarioSettings, problems: [Problem]) {
            var settings = ScenarioSettings()
            var problems: [Problem] = []
            func count(_ name: String) -> Int? {
                guard let text = variables[name], !text.isEmpty else { return nil }
                guard let value = Int(text), value >= 1 else {
                    problems.append(Problem(description: "\(name)=\(text): expected a whole number of at least 1"))
                    return nil
                }
                return value
            }
            settings.repeatCount = count(Variable.repeatCount)
            settings.schedules = count(Variable.schedules)
            if let text = variables[Variable.seed], !text.isEmpty {
                if let seed = UInt64(text) {
                    settings.seed = seed
                } else {
                    problems.append(Problem(description: "\(Variable.seed)=\(text): expected a whole number, such as 7"))
                }
            }
            if let text = variables[Variable.replaySchedule], !text.isEmpty { settings.replaySchedule = text }
            if let text = variables[Variable.reports], !text.isEmpty { settings.reports = text }
            return (settings, problems)
        }

        /// These settings with `other`'s on top: a way of running in `other` replaces this one's
        /// whole (a replay from the environment is not in conflict with a trait's schedules), and
        /// its report folder replaces this one's.
        func overridden(by other: ScenarioSettings) -> ScenarioSettings {
            var merged = self
            if other.repeatCount != nil || other.schedules != nil || other.replaySchedule != nil {
                merged.repeatCount = other.repeatCount
                merged.schedules = other.schedules
                merged.seed = other.seed
                merged.replaySchedule = other.replaySchedule
            } else if let seed = other.seed {
                // A seed alone (SCENARIO_SEED=2) re-seeds the schedules this one explores; it does
                // not replace them with nothing ("seed goes with schedules").
                merged.seed = seed
            }
            if let reports = other.reports { merged.reports = reports }
            return merged
        }

        /// How to run, or why these settings cannot go together.
        func mode() -> Result<Mode, Problem> {
            func conflict(_ first: String, _ second: String) -> Result<Mode, Problem> {
                .failure(Problem(description: "settings '\(first)' and '\(second)' cannot be used together"))
            }
            if let text = replaySchedule {
                if schedules != nil { return conflict("replay", "schedules") }
                if seed != nil { return conflict("replay", "seed") }
                if repeatCount != nil { return conflict("replay", "repeat") }
                guard let schedule = JobSchedule(parsing: text) else {
                    return .failure(Problem(description: "replay '\(text)': expected SEED:INDEX as a failure printed it, such as 7:42"))
                }
                return .success(.explored(.replay(schedule)))
            }
            if let schedules {
                if repeatCount != nil { return conflict("schedules", "repeat") }
                guard schedules >= 1 else { return .failure(Problem(description: "schedules \(schedules): expected at least 1")) }
                return .success(.explored(.schedules(count: schedules, seed: seed ?? 1)))
            }
            if seed != nil { return .failure(Problem(description: "seed goes with schedules")) }
            if let repeatCount {
                guard repeatCount >= 1 else { return .failure(Problem(description: "repeat \(repeatCount): expected at least 1")) }
                return .success(repeatCount == 1 ? .once : .repeated(repeatCount))
            }
            return .success(.once)
        }

        /// How a failed schedule says to replay it from a test bundle.
        static func replayAdvice(_ schedule: JobSchedule) -> String {
            "\(Variable.replaySchedule)=\(schedule) in the environment (or the .scenarios(replay: \"\(schedule)\") trait)"
        }
    }

    extension Trait where Self == ScenarioSettings {
        /// Runs each scenario of the test `repeat` times, under `schedules` schedules drawn from
        /// `seed`, or under the one schedule `replay` names, and writes the reports into `reports`.
        /// See ``ScenarioSettings``.
        public static func scenarios(
            repeat repeatCount: Int? = nil, schedules: Int? = nil, seed: UInt64? = nil, replay: String? = nil, reports: String? = nil
        ) -> Self {
            ScenarioSettings(repeat: repeatCount, schedules: schedules, seed: seed, replay: replay, reports: reports)
        }
    }
#endif
