/// Which order a scenario's runnable jobs run in.
///
/// `fifo` is the default: jobs run in the order they became runnable. An explored schedule is
/// drawn from a seed with PCT (probabilistic concurrency testing, Burckhardt et al., ASPLOS 2010,
/// as in Coyote and Shuttle): every task gets a random priority when its first job appears, the
/// highest-priority runnable job runs next, and at `depth - 1` random points the running task's
/// priority drops below all others. For a bug that needs `d` ordering constraints among `n`
/// tasks over `k` jobs, one schedule finds it with probability at least `1 / (n · k^(d-1))`,
/// whatever the program; uniform random choice has no such bound.
public struct JobSchedule: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The seed the run's schedules are drawn from.
    package var seed: UInt64
    /// Which schedule of the seed (1-based); `0` is first in, first out.
    package var index: Int
    /// PCT's depth: how many ordering constraints a bug may need.
    package var depth: Int
    /// The departures from first in, first out of an explicit schedule (`nil`: drawn from the seed).
    package var explicit: ExplicitSchedule?

    /// First in, first out: the default order.
    package static let fifo = JobSchedule(seed: 0, index: 0)

    /// A schedule; index `0` is first in, first out.
    public init(seed: UInt64, index: Int, depth: Int = 3) {
        self.seed = seed
        self.index = index
        self.depth = max(1, depth)
    }

    /// An explicit schedule: exactly these departures from first in, first out.
    package init(_ explicit: ExplicitSchedule) {
        self.init(seed: 0, index: 0)
        self.explicit = explicit
    }

    /// Whether this is the default order.
    package var isFIFO: Bool { explicit.map(\.isEmpty) ?? (index == 0) }

    /// `SEED:INDEX` (or an explicit schedule's departures), as `--replay-schedule` takes it.
    public var description: String { explicit?.description ?? "\(seed):\(index)" }

    /// Reads `SEED:INDEX`, or an explicit schedule's departures (`pick12=1,late3=250ms`).
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 1, let explicit = ExplicitSchedule(parsing: text) {
            self.init(explicit)
            return
        }
        guard parts.count == 2, let seed = UInt64(parts[0]), let index = Int(parts[1]), index >= 0 else { return nil }
        self.init(seed: seed, index: index)
    }
}

/// The choices of one schedule while a scenario runs: which queued job runs next.
struct JobOrder {
    /// The positions it picked other than first in, first out's, by place: what replays this
    /// order as an explicit schedule.
    private(set) var departures: [ExplicitSchedule.Place: Int] = [:]
    /// Where the current pick falls: its step, and which of the step's picks it is.
    private var places = StepCounter()
    private var random: SplitMix64
    private let schedule: JobSchedule
    /// Task ordinal (first appearance) to priority; higher runs first.
    private var priorities: [Int] = []
    private var changePoints: [Int] = []
    private var step = 0

    /// `length` is how many jobs the first-in-first-out run took: where change points may fall.
    init(_ schedule: JobSchedule, length: Int) {
        self.schedule = schedule
        random = SplitMix64(seed: schedule.seed &+ UInt64(schedule.index) &* 0x9E37_79B9_7F4A_7C15)
        let span = max(1, length)
        changePoints = (0..<(schedule.depth - 1)).map { _ in Int(random.next() % UInt64(span)) + 1 }.sorted()
    }

    /// Whether jobs simply run in the order they came.
    var isFIFO: Bool { schedule.isFIFO }

    /// The run begins step `step` (0 before the first, the count of steps plus one after the last).
    mutating func enterStep(_ step: Int) { places.enter(step) }

    /// Picks the position of the next job among `ordinals` (the queued jobs' tasks, in queue
    /// order), where first in, first out would pick `fifo`.
    mutating func pick(_ ordinals: [Int], fifo: Int = 0) -> Int {
        if schedule.isFIFO { return fifo }
        step += 1
        let place = places.next()
        let chosen: Int
        if let explicit = schedule.explicit {
            // A position past those that can run now (the scenario changed since) is no departure.
            chosen = explicit.picks[place].flatMap { ordinals.indices.contains($0) ? $0 : nil } ?? fifo
        } else {
            chosen = drawn(ordinals)
        }
        if chosen != fifo { departures[place] = chosen }
        return chosen
    }

    /// PCT's pick: the highest priority, which drops at the change points.
    private mutating func drawn(_ ordinals: [Int]) -> Int {
        for ordinal in ordinals where ordinal >= priorities.count {
            while priorities.count <= ordinal {
                // Initial priorities stay above every change point's.
                priorities.append(schedule.depth + Int(random.next() % 1_000_000))
            }
        }
        var best = 0
        for (position, ordinal) in ordinals.enumerated() where priorities[ordinal] > priorities[ordinals[best]] {
            best = position
        }
        if let point = changePoints.firstIndex(of: step) {
            // The chosen task runs now, then drops below everything else from here on.
            priorities[ordinals[best]] = schedule.depth - 1 - point
        }
        return best
    }
}

/// A small, fast, seedable generator (Vigna's SplitMix64): the same seed, the same schedules,
/// on every platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension ScenarioScheduler {
    /// Where a job runs.
    enum Lane {
        /// Nonisolated code and actors: run as the global executor would.
        case generic
        /// Main-actor code: run "on" the main actor's stand-in, so isolation checks hold.
        case main

        /// Runs `job` on the runner thread "on" this lane's stand-in executor.
        func run(_ job: UnownedJob) {
            switch self {
            case .main:
                job.runSynchronously(on: MainActorStandIn.shared.asUnownedSerialExecutor())
            case .generic:
                if #available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *) {
                    job.runSynchronously(on: GenericTaskStandIn.shared.asUnownedTaskExecutor())
                } else {
                    job.runSynchronously(on: GenericStandIn.shared.asUnownedSerialExecutor())
                }
            }
        }
    }

    /// What the runner runs: a Swift job, or a block taken from Dispatch.
    enum Work {
        case job(UnownedJob, Lane)
        case block(DispatchWork)
        /// An answer of the scripted backend, handed to the stack when nothing else can run.
        case delivery(AnswerDelivery)
    }
}
