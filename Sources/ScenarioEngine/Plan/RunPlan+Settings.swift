extension RunPlan {
    /// The ways of running a user gave (`--repeat`, `--schedules`, `--seed`, `--replay-schedule`
    /// on the command line; `SCENARIO_*` variables and a test's `.scenarios(...)` trait in a test
    /// bundle), each as written and named by where it came from, turned into a ``Mode`` in one
    /// place, so every way in refuses the same things with the same words.
    package struct Settings: Sendable {
        /// A setting as written, with its name (`--repeat`, `SCENARIO_REPEAT`) and how a message
        /// about two settings shows it (`--repeat`, `SCENARIO_REPEAT=20`, `repeat: 20`).
        package struct Given: Sendable {
            package var text: String
            package var name: String
            package var shown: String

            package init(_ text: String, name: String, shown: String? = nil) {
                self.text = text
                self.name = name
                self.shown = shown ?? name
            }
        }

        package var repeatCount: Given?
        package var schedules: Given?
        package var seed: Given?
        package var replay: Given?
        /// How schedules are named where these settings come from, for "a seed goes with schedules".
        package var schedulesName: String

        package init(
            repeatCount: Given? = nil, schedules: Given? = nil, seed: Given? = nil, replay: Given? = nil,
            schedulesName: String = "schedules"
        ) {
            self.schedulesName = schedulesName
            self.repeatCount = repeatCount
            self.schedules = schedules
            self.seed = seed
            self.replay = replay
        }

        /// These settings with `other`'s on top (a test bundle's environment over its trait): a
        /// setting `other` gives replaces this one's, and a replay in `other` replays one of the
        /// schedules these explore, so it replaces their count and seed too. What remains must
        /// still go together, as on the command line.
        package func overridden(by other: Settings) -> Settings {
            var merged = self
            if other.replay != nil {
                merged.schedules = nil
                merged.seed = nil
            }
            merged.repeatCount = other.repeatCount ?? merged.repeatCount
            merged.schedules = other.schedules ?? merged.schedules
            merged.seed = other.seed ?? merged.seed
            merged.replay = other.replay ?? merged.replay
            return merged
        }

        /// The mode these settings ask for, or why they cannot be used.
        package func mode() -> Result<Mode, Problem> {
            func conflict(_ first: Given, _ second: Given) -> Result<Mode, Problem> {
                .failure(.conflict(first.shown, second.shown))
            }
            func read<Value>(_ given: Given, _ reader: (String) -> Result<Value, Reason>) -> Result<Value, Problem> {
                reader(given.text).mapError { .invalid(given, reason: $0.text) }
            }
            if let replay {
                for other in [schedules, seed, repeatCount] { if let other { return conflict(replay, other) } }
                return read(replay, Read.schedule).map(Mode.replay)
            }
            if let schedules {
                if let repeatCount { return conflict(schedules, repeatCount) }
                let count: Int
                switch read(schedules, Read.count) {
                case .success(let read): count = read
                case .failure(let problem): return .failure(problem)
                }
                var drawnFrom: UInt64 = 1
                if let seed {
                    switch read(seed, Read.seed) {
                    case .success(let read): drawnFrom = read
                    case .failure(let problem): return .failure(problem)
                    }
                }
                return .success(count == 1 ? .once : .explored(schedules: count, seed: drawnFrom))
            }
            if let seed { return .failure(.seedWithoutSchedules(seed.shown, schedules: schedulesName)) }
            if let repeatCount {
                return read(repeatCount, Read.count).map { $0 == 1 ? .once : .repeated($0) }
            }
            return .success(.once)
        }
    }

    /// Why a value cannot be what its option needs, in words every way in shows alike.
    package struct Reason: Error, Sendable, Hashable {
        package var text: String
    }

    /// How each run option's value is read, and what a wrong one is told: the one place for the
    /// command line's flags (`--repeat`, `--schedules`, `--seed`, `--replay-schedule`, `--jobs`,
    /// `--route`), a test's trait and the `SCENARIO_*` variables.
    package enum Read {
        /// A whole number of at least 1 (`--repeat`, `--schedules`, `--jobs`).
        package static func count(_ text: String) -> Result<Int, Reason> {
            guard let value = Int(text), value >= 1 else { return .failure(Reason(text: "expected a whole number of at least 1")) }
            return .success(value)
        }

        /// The seed schedules are drawn from.
        package static func seed(_ text: String) -> Result<UInt64, Reason> {
            UInt64(text).map { .success($0) } ?? .failure(Reason(text: "expected a whole number, such as 7"))
        }

        /// `SEED:INDEX` as a failure printed it, or the departures a shrink printed.
        package static func schedule(_ text: String) -> Result<JobSchedule, Reason> {
            JobSchedule(parsing: text).map { .success($0) }
                ?? .failure(Reason(text: "expected SEED:INDEX as a failure printed it, such as 7:42, or the schedule a shrink printed"))
        }

        /// How requests reach the backend.
        package static func route(_ text: String) -> Result<Route, Reason> {
            if let route = Route(rawValue: text) { return .success(route) }
            let choices = Route.allCases.map(\.rawValue)
            var reason = "expected one of \(choices.joined(separator: ", "))"
            if let close = Suggestion.closest(to: text, in: choices) { reason += "; did you mean '\(close)'?" }
            return .failure(Reason(text: reason))
        }
    }

    /// Why settings cannot be used.
    package enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// Two settings that exclude each other, by name.
        case conflict(String, String)
        /// A value that cannot be what its setting needs.
        case invalid(name: String, value: String, reason: String)
        /// A seed without schedules to draw.
        case seedWithoutSchedules(String, schedules: String)

        static func invalid(_ given: Settings.Given, reason: String) -> Problem {
            .invalid(name: given.name, value: given.text, reason: reason)
        }

        package var description: String {
            switch self {
            case .conflict(let first, let second): "'\(first)' and '\(second)' cannot be used together"
            case .invalid(let name, let value, let reason): "invalid value '\(value)' for \(name): \(reason)"
            case .seedWithoutSchedules(let name, let schedules): "\(name) goes with \(schedules)"
            }
        }
    }
}
