#if canImport(Testing)
    import Foundation
    import ScenarioEngine
    import Testing

    /// How `check` runs a scenario besides its ``RunPlan``'s route: repeated, explored under several
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
    /// The environment overrides it, so CI or a replay needs no code change: each of
    /// `SCENARIO_REPEAT`, `SCENARIO_SCHEDULES`, `SCENARIO_SEED` and `SCENARIO_REPORTS` replaces
    /// the trait's own setting, and `SCENARIO_REPLAY_SCHEDULE` replays one of the trait's
    /// schedules. What remains is checked as `scenario run` checks its flags: settings that
    /// cannot go together (a repeat with schedules) fail the case, naming where each came from.
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
        /// The folder a shrunk copy of each failing scenario is written to, named after its id;
        /// relative to the package root, as `reports` (`scenario run --shrink`).
        public var shrink: String?

        /// Settings; each one left out keeps the default (run once, no report, no shrinking).
        public init(
            repeat repeatCount: Int? = nil, schedules: Int? = nil, seed: UInt64? = nil, replay replaySchedule: String? = nil,
            reports: String? = nil, shrink: String? = nil
        ) {
            self.repeatCount = repeatCount
            self.schedules = schedules
            self.seed = seed
            self.replaySchedule = replaySchedule
            self.reports = reports
            self.shrink = shrink
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
            static let shrink = "SCENARIO_SHRINK"
        }

        /// These settings' ways of running, named as the trait writes them (`schedules: 100`).
        var asPlanSettings: RunPlan.Settings {
            func given(_ value: (some CustomStringConvertible)?, _ name: String) -> RunPlan.Settings.Given? {
                value.map { RunPlan.Settings.Given("\($0)", name: name, shown: "\(name): \($0)") }
            }
            return RunPlan.Settings(
                repeatCount: given(repeatCount, "repeat"), schedules: given(schedules, "schedules"), seed: given(seed, "seed"),
                replay: replaySchedule.map { RunPlan.Settings.Given($0, name: "replay", shown: "replay: \"\($0)\"") })
        }

        /// The ways of running the environment gives (empty variables are unset), named as set
        /// (`SCENARIO_REPEAT=20`), its report folder and its shrink folder.
        static func environment(_ variables: [String: String]) -> (settings: RunPlan.Settings, reports: String?, shrink: String?) {
            func given(_ name: String) -> RunPlan.Settings.Given? {
                guard let text = variables[name], !text.isEmpty else { return nil }
                return RunPlan.Settings.Given(text, name: name, shown: "\(name)=\(text)")
            }
            let settings = RunPlan.Settings(
                repeatCount: given(Variable.repeatCount), schedules: given(Variable.schedules), seed: given(Variable.seed),
                replay: given(Variable.replaySchedule), schedulesName: Variable.schedules)
            func folder(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
            return (settings, folder(Variable.reports), folder(Variable.shrink))
        }

        /// The plan a check runs under: `plan` with the mode these settings, and the environment's
        /// on top, ask for (`plan`'s own mode when neither gives one), checked as the command
        /// line checks its flags, and the folder failures are shrunk into (as given, relative to
        /// the package root); and where the reports go.
        func plan(_ plan: RunPlan, environment variables: [String: String]) -> (plan: Result<RunPlan, RunPlan.Problem>, reports: String?) {
            let fromEnvironment = Self.environment(variables)
            let settings = asPlanSettings.overridden(by: fromEnvironment.settings)
            let reports = fromEnvironment.reports ?? self.reports
            var plan = plan
            plan.shrinkInto = fromEnvironment.shrink ?? shrink ?? plan.shrinkInto
            let givesMode = settings.repeatCount != nil || settings.schedules != nil || settings.seed != nil || settings.replay != nil
            guard givesMode else { return (.success(plan), reports) }
            return (
                settings.mode().map { mode in
                    plan.mode = mode
                    return plan
                }, reports
            )
        }

        /// How a failed schedule says to replay it from a test bundle.
        static func replayAdvice(_ schedule: JobSchedule) -> String {
            "\(Variable.replaySchedule)=\(schedule) in the environment (or the .scenarios(replay: \"\(schedule)\") trait)"
        }
    }

    extension Trait where Self == ScenarioSettings {
        /// Runs each scenario of the test `repeat` times, under `schedules` schedules drawn from
        /// `seed`, or under the one schedule `replay` names, writes the reports into `reports`, and a
        /// shrunk copy of each failing scenario into `shrink`.
        /// See ``ScenarioSettings``.
        public static func scenarios(
            repeat repeatCount: Int? = nil, schedules: Int? = nil, seed: UInt64? = nil, replay: String? = nil, reports: String? = nil,
            shrink: String? = nil
        ) -> Self {
            ScenarioSettings(repeat: repeatCount, schedules: schedules, seed: seed, replay: replay, reports: reports, shrink: shrink)
        }
    }
#endif
