import Foundation
import HTTPCore

/// One run of one scenario, on the calling thread: the loop that starts actions, lets the app
/// run until idle, moves virtual time and checks expectations.
package final class ScenarioRun: @unchecked Sendable {
    let scenario: Scenario
    let driver: any ScenarioDriver
    let plan: RunPlan
    /// The order of jobs in this run: first in, first out unless exploring.
    let schedule: JobSchedule
    let scheduler: ScenarioScheduler
    let clock: VirtualClock
    let backend: ScriptedBackend
    /// The stack under test; let go in ``tearDown()``, while the scenario still owns its queues.
    var session: (any DriverSession)?
    private var handles: [String: PendingAction] = [:]
    private(set) var steps: [StepResult] = []
    /// Transcript length when the first check failed: the first divergence.
    private(set) var divergence: Int?
    /// Clock wakes in the current step, against `limits.wakes`.
    private var wakes = 0
    /// The step running now, whose place an abandoned run names.
    private(set) var currentStep: Step?
    /// Every action started, for the invariants; values quoted by failed invariants, to mask.
    private var actionLog: [PendingAction] = []

    /// Every action started so far, as the record keeps them.
    var actionsSoFar: [RunRecord.Action] {
        actionLog.map { RunRecord.Action(name: $0.call.action, began: $0.began, ended: $0.ended.value, result: $0.result) }
    }
    private(set) var invariantSecrets: [String] = []
    /// The exchanges that served the requests each broken invariant names.
    private(set) var invariantExchanges: [String: [String]] = [:]
    /// Ends the run from inside a wait of the app's that went past a step's limits (set while
    /// the run holds its turn; see ``abandon(_:ending:)``).
    private(set) var endFromAWait: ((String) -> Never)?

    /// A run of `scenario` under `plan`, its jobs in the order `schedule` draws; `scheduleLength`
    /// is how many jobs its first-in-first-out run took (where an explored schedule's priority
    /// changes may fall).
    init(scenario: Scenario, driver: any ScenarioDriver, plan: RunPlan, schedule: JobSchedule = .fifo, scheduleLength: Int = 100) {
        self.scenario = scenario
        self.driver = driver
        self.plan = plan
        self.schedule = schedule
        let clock = VirtualClock(start: scenario.clockStart)
        self.clock = clock
        scheduler = ScenarioScheduler(
            clock: clock, order: JobOrder(schedule, length: scheduleLength), scenarioFile: scenario.file)
        var lateAnswers: LateAnswers?
        if let explicit = schedule.explicit, !explicit.isEmpty {
            lateAnswers = LateAnswers(bound: scenario.lateAnswers, explicit: explicit.late)
        } else if !schedule.isFIFO {
            // The network's draws are the schedule's too, apart from the order of jobs.
            let seed = schedule.seed ^ (UInt64(schedule.index) &* 0xD1B5_4A32_D192_ED03) ^ 0x6E65_7477_6F72_6B00
            lateAnswers = LateAnswers(bound: scenario.lateAnswers, seed: seed)
        }
        let scheduler = self.scheduler
        backend = ScriptedBackend(
            exchanges: scenario.exchanges, clock: clock, outsideWork: scheduler.outside, handOn: { scheduler.deliver($0) },
            lateAnswers: lateAnswers)
    }

    /// How long a run about to be called stuck waits, in real time, for work coming back from
    /// another thread, so an escape is named as one. Only failing runs ever wait, and only while
    /// such work may still come (``mayHearFromElsewhere``).
    static let stragglerWait: TimeInterval = 1

    /// Whether work may still come back to the scenario from a thread it does not own: a thread
    /// its code started is still running, the URLSession route or declared outside work has
    /// something away, or the capture does not see every thread. When none holds, a run with
    /// nothing scheduled that still waits can never finish, and is known so at once.
    private var mayHearFromElsewhere: Bool {
        ScenarioHost.shared.level != .full || !DispatchCapture.countsThreads || DispatchCapture.threadsStartedAlive > 0
            || scheduler.outside.isAway || scheduler.outside.hasDeclaredWork
    }

    /// A run failed in a way that ends it: stuck, busy, escaped, or a driver fault.
    private struct Abort: Error {
        var fault: RunFault

        init(_ subject: FailureSubject, message: String, location: ScenarioLocation? = nil) {
            fault = RunFault(message: message, location: location, subject: subject)
        }
    }

    /// Where the stack is told the backend is.
    package static let baseURL = URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/")

    /// Runs the scenario on the calling thread, which becomes its runner thread, in its turn.
    /// - Parameter abandoned: takes the result instead when the app's code holds the thread past
    ///   a step's limits (see ``abandon(_:ending:)``), and this function then never returns; or,
    ///   from another thread, when the stack blocked this one for real (``ProcessTurn/lose(_:reason:)``).
    func execute(ifAbandoned abandoned: @escaping (RunOutcome) -> Void) -> RunOutcome {
        let turn: ScenarioTurn
        // Called on the stall watch's thread while this one is blocked in the stack for real.
        let run = self
        nonisolated(unsafe) let abandoned = abandoned
        do {
            turn = try ScenarioTurn.begin(for: scheduler, serving: backend) { message in abandoned(run.stalledOutcome(message)) }
        } catch {
            return outcome(fault: RunFault(message: "\(error)", subject: FailureSubject(.error, "host")))
        }
        defer { turn.end() }
        endFromAWait = { [unowned self] message in
            abandoned(abandon(message, ending: turn))
            ScenarioTurn.parkForever()
        }
        // `abandoned` holds the caller's hold on this run: kept past the run, the two would keep each other.
        defer { endFromAWait = nil }
        limitWaits(from: clock.now)
        defer { scheduler.waitLimits = nil }

        let runKey = turn.run
        let transport: any HTTPTransport
        switch plan.route {
        case .urlSession:
            transport = RoutedURLSessionTransport(
                run: runKey, inner: URLSessionHTTPTransport(baseURL: Self.baseURL, session: ScriptedURLProtocol.makeSession()),
                outsideWork: scheduler.outside)
        case .direct:
            transport = ScriptedTransport(backend: backend)
        }

        var fault: RunFault?
        do {
            let context = DriverContext(
                given: scenario.given, transport: transport, clock: clock, baseURL: Self.baseURL, route: plan.route, run: runKey,
                outside: scheduler.outside)
            let driver = self.driver
            let made = try onExecutor("makeSession(_:)") { () async -> Result<any DriverSession, any Error> in
                do { return .success(try await driver.makeSession(context)) } catch { return .failure(error) }
            }
            switch made {
            case .success(let session): self.session = session
            case .failure(let error):
                throw Abort(
                    FailureSubject(.error, "driver start"), message: "the driver could not start from 'given': \(error)",
                    location: scenario.location)
            }
            for (offset, step) in scenario.steps.enumerated() {
                try perform(step, index: offset + 1)
            }
            enterStep(scenario.steps.count + 1)
            limitWaits(from: clock.now)
            try settle()
            if !plan.invariantsOnly { try finalChecks() }
            try checkInvariants()
        } catch let abort as Abort {
            fault = abort.fault
        } catch {
            fault = RunFault(message: "\(error)", subject: FailureSubject(.error, "driver"))
        }
        if let runaway = tearDown(), fault == nil {
            fault = RunFault(message: runaway, location: scenario.location, subject: FailureSubject(.error, "ran on after the end"))
        }
        return outcome(fault: fault)
    }

    // MARK: - Steps

    private func perform(_ step: Step, index: Int) throws {
        enterStep(index)
        wakes = 0
        currentStep = step
        // An `advance` step's own move of time is its, before the limits count.
        let advanced: Duration = if case .advance(let duration) = step.kind { duration } else { .zero }
        limitWaits(from: clock.now.advanced(by: advanced))
        let mark = (time: clock.now.offset, event: backend.eventCount)
        if let name = step.name { backend.reachStep(name) }
        var assertions: [AssertionResult] = []
        switch step.kind {
        case .perform(let call, let parallel, let expect):
            let actions = (0..<parallel).map { _ in start(call) }
            try wait(for: actions, step: step)
            // Copies that ended the same way are one check: `copies 1-5 of 5`.
            assertions += CopyGroups.grouped(
                actions.map {
                    ExpectationChecks.outcome($0.result, against: expect, action: call.action, label: "outcome", location: step.location)
                })
        case .group(let calls, let expects):
            let actions = calls.map(start)
            try wait(for: actions, step: step)
            for (offset, action) in actions.enumerated() {
                assertions.append(
                    ExpectationChecks.outcome(
                        action.result, against: expects[offset], action: calls[offset].action, label: "outcome of \(calls[offset].action)",
                        location: calls[offset].location))
            }
        case .start(let call, let handle):
            handles[handle] = start(call)
            try settle()
        case .await(let handle, let expect):
            guard let action = handles[handle] else {
                throw Abort(
                    FailureSubject(.error, "unknown handle"), message: "no background action is named '\(handle)'", location: step.location)
            }
            try wait(for: [action], step: step)
            handles[handle] = nil
            assertions.append(
                ExpectationChecks.outcome(
                    action.result, against: expect, action: action.call.action, label: "outcome of '\(handle)'", location: step.location))
        case .check where plan.invariantsOnly:
            try settle()
        case .advance(let duration):
            try advance(to: clock.now.advanced(by: duration))
        case .runUntilIdle:
            try settle()
        case .check(let expectations):
            try settle()
            assertions += try evaluate(expectations)
        }
        if plan.invariantsOnly { assertions.removeAll() }
        record(
            StepResult(
                index: index, label: step.label, location: step.location, assertions: assertions, startedAt: mark.time,
                firstLine: mark.event))
    }

    /// Where an explicit schedule's choices and late answers are counted from.
    private func enterStep(_ index: Int) {
        scheduler.enterStep(index)
        backend.enterStep(index)
    }

    /// An action started on the simulation executor; its result lands in `outcome` when it finishes.
    private struct PendingAction: Sendable {
        let call: ActionCall
        let outcome = ResultBox<ActionResult>()
        /// Events so far when it began and when it ended (see ``RunRecord``).
        var began = 0
        let ended = ResultBox<Int>()

        var result: ActionResult? { outcome.value }
    }

    private func start(_ call: ActionCall) -> PendingAction {
        let backend = self.backend
        let pending = PendingAction(call: call, began: backend.eventCount)
        guard let session else { return pending }
        actionLog.append(pending)
        Task {
            let result = await session.perform(call.action, arguments: call.arguments)
            pending.ended.set(backend.eventCount)
            pending.outcome.set(result)
        }
        return pending
    }

    /// Lets the app run, moving virtual time to each next deadline, until every action is done.
    private func wait(for actions: [PendingAction], step: Step) throws {
        try settle()
        let started = clock.now
        while actions.contains(where: { $0.result == nil }) {
            guard let next = clock.nextDeadline, started.duration(to: next) <= scenario.timeLimit else {
                if clock.nextDeadline == nil, mayHearFromElsewhere, scheduler.awaitStraggler(seconds: Self.stragglerWait) {
                    try settle()
                    continue
                }
                // What escaped meanwhile (a request another thread sent, held back) says more than "stuck".
                try settle()
                // News that came as the wait ended may have finished the actions.
                guard actions.contains(where: { $0.result == nil }) else { continue }
                let waiting = actions.filter { $0.result == nil }.map(\.call.action)
                throw Abort(FailureSubject(.stuck), message: stuck.text(waitingActions: waiting), location: step.location)
            }
            try advance(to: next)
        }
    }

    /// Moves time to `target`, waking sleepers in deadline order and letting the app run after each.
    private func advance(to target: VirtualClock.Instant) throws {
        try settle()
        while let next = clock.nextDeadline, next <= target {
            wakes += 1
            if wakes > scenario.limits.wakes {
                let from = clock.now
                throw Abort(
                    FailureSubject(.error, "clock wakes"),
                    message:
                        "this step woke the clock \(scenario.limits.wakes) times and reached \(from) of virtual time with \(VirtualClock.Instant.format(from.duration(to: target))) still to go (a timer that ticks on and on?); raise limits.wakes if you mean it",
                    location: currentStep?.location)
            }
            _ = clock.wakeDue(movingTo: next)
            try settle()
        }
        _ = clock.wakeDue(movingTo: target)
        try settle()
    }

    /// Runs jobs until the app is idle.
    private func settle() throws {
        do {
            try scheduler.runUntilIdle(jobLimit: scenario.limits.jobs)
        } catch .busy(let jobs) {
            throw Abort(
                FailureSubject(.error, "busy"),
                message:
                    "the app never became idle (\(jobs) jobs without a pause): a loop that does not wait on the clock or the network? raise limits.jobs if you mean it",
                location: currentStep?.location)
        } catch .externalWorkTimedOut(let pending) {
            throw Abort(
                FailureSubject(.error, "outside work"),
                message: "work outside the scenario did not come back within 30 s of real time: \(pending)")
        }
        backend.sweepGivenUp()
        let escapes = scheduler.escapes
        if !escapes.isEmpty {
            for escape in escapes { backend.noteEscape(escape) }
            throw Abort(
                FailureSubject(.escaped), message: "escaped: " + escapes.joined(separator: "; "),
                location: currentStep?.location ?? scenario.location)
        }
    }

    /// Runs a driver call as a task of the scenario and returns its value once the app is idle.
    private func onExecutor<T: Sendable>(_ call: String, _ body: @escaping @Sendable () async -> T) throws -> T {
        let box = ResultBox<T>()
        Task { box.set(await body()) }
        try settle()
        while box.value == nil, clock.nextDeadline == nil, mayHearFromElsewhere, scheduler.awaitStraggler(seconds: Self.stragglerWait) {
            try settle()
        }
        guard let value = box.value else {
            throw Abort(
                FailureSubject(.stuck), message: "the driver's \(call) did not answer without waiting: \(stuck.waitingSummary)",
                location: scenario.location)
        }
        return value
    }

    private var stuck: StuckMessage { StuckMessage(clock: clock, backend: backend, timeLimit: scenario.timeLimit) }

    // MARK: - Checks

    /// Gathers what `expect` asks about from the driver and the backend, then checks it.
    private func evaluate(_ expect: Expectations) throws -> [AssertionResult] {
        guard let session else { return [] }
        var observed = ExpectationChecks.Observed(requests: backend.runRecord.requests)
        if expect.state != nil { observed.state = try onExecutor("snapshot()") { await session.snapshot() } }
        if expect.alerts != nil { observed.alerts = try onExecutor("alerts()") { await session.alerts() } }
        if expect.timeline != nil { observed.timeline = try onExecutor("timeline()") { await session.timeline() } }
        return ExpectationChecks.evaluate(expect, observed: observed, exchanges: scenario.exchanges)
    }

    private func finalChecks() throws {
        let assertions =
            try evaluate(scenario.expect)
            + ExpectationChecks.exhaustiveness(of: scenario, record: backend.runRecord, useCounts: backend.useCounts)
            + unawaitedFailures()
        record(
            StepResult(
                index: scenario.steps.count + 1, label: "expect", location: scenario.expect.location ?? scenario.location,
                assertions: assertions, startedAt: clock.now.offset, firstLine: backend.eventCount))
    }

    /// A background action nobody awaited that ended in an error would go unchecked: it fails the
    /// run. One still running is the scenario's business (an app that must not finish starting).
    private func unawaitedFailures() -> [AssertionResult] {
        handles.sorted { $0.key < $1.key }.compactMap { handle, action in
            guard case .error(let error)? = action.result else { return nil }
            return AssertionResult(
                label: "outcome of '\(handle)'", passed: false,
                message: "'\(handle)' ended with an error and was never awaited; await it with the outcome it must have",
                expected: "awaited", actual: error.compactText, location: action.call.location,
                subjects: [FailureSubject(.outcome, action.call.action, observed: "failed, never awaited")])
        }
    }

    private func record(_ step: StepResult) {
        if !step.passed, divergence == nil { divergence = backend.eventCount }
        steps.append(step)
    }

    /// Checks the run against the scenario's invariants, as one more step of results.
    private func checkInvariants() throws {
        guard !scenario.invariants.isEmpty, let session else { return }
        var runRecord = backend.runRecord
        runRecord.actions = actionsSoFar
        let check = try InvariantRunCheck(
            invariants: scenario.invariants, record: runRecord,
            alerts: { try self.onExecutor("alerts()") { await session.alerts() } },
            timeline: { try self.onExecutor("timeline()") { await session.timeline() } })
        invariantSecrets += check.quoted
        invariantExchanges = check.involvedExchanges
        record(
            StepResult(
                index: scenario.steps.count + 2, label: "invariants", location: scenario.location, assertions: check.assertions,
                startedAt: clock.now.offset, firstLine: backend.eventCount))
    }
}
