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
            if let replay {
                for other in [schedules, seed, repeatCount] { if let other { return conflict(replay, other) } }
                guard let schedule = JobSchedule(parsing: replay.text) else {
                    return .failure(
                        .invalid(
                            replay, reason: "expected SEED:INDEX as a failure printed it, such as 7:42, or the schedule a shrink printed"))
                }
                return .success(.replay(schedule))
            }
            if let schedules {
                if let repeatCount { return conflict(schedules, repeatCount) }
                guard let count = Self.count(schedules.text) else { return .failure(.invalid(schedules, reason: Self.countReason)) }
                var drawnFrom: UInt64 = 1
                if let seed {
                    guard let parsed = UInt64(seed.text) else {
                        return .failure(.invalid(seed, reason: "expected a whole number, such as 7"))
                    }
                    drawnFrom = parsed
                }
                return .success(count == 1 ? .once : .explored(schedules: count, seed: drawnFrom))
            }
            if let seed { return .failure(.seedWithoutSchedules(seed.shown, schedules: schedulesName)) }
            if let repeatCount {
                guard let count = Self.count(repeatCount.text) else {
                    return .failure(.invalid(repeatCount, reason: Self.countReason))
                }
                return .success(count == 1 ? .once : .repeated(count))
            }
            return .success(.once)
        }

        private static let countReason = "expected a whole number of at least 1"

        private static func count(_ text: String) -> Int? {
            guard let value = Int(text), value >= 1 else { return nil }
            return value
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
