import Foundation
import HTTPCore

/// The record of one run: every ``RunEvent`` in the order it happened, and the same requests
/// indexed with their answers, the actions the steps started, the alerts and the timeline.
/// Positions (`order`) are places in ``events``, counted from 1, so "before" and "after" are
/// exact even when many things happen at one virtual instant. Built by the run's backend as it serves; read by
/// the checks, the invariants, `--repeat`, HAR export and, masked, by every report.
package struct RunRecord: Sendable {
    /// An answer as it reached the stack.
    package struct Answer: Sendable {
        /// The status; `nil` for a transport fault.
        package var status: Int?
        /// Its header fields.
        package var headers: HTTPFields
        /// Its body.
        package var body: Data
        /// The fault's name, for a transport fault.
        package var fault: String?
        /// Virtual time when it was delivered.
        package var at: Duration
        /// Its place among the events, counted from 1.
        package var order: Int

        package init(status: Int?, headers: HTTPFields = [:], body: Data = Data(), fault: String? = nil, at: Duration, order: Int) {
            self.status = status
            self.headers = headers
            self.body = body
            self.fault = fault
            self.at = at
            self.order = order
        }
    }

    /// A request the stack sent, with its answer when one came back.
    package struct Request: Sendable {
        /// Its number in the transcript (`#3`).
        package var number: Int
        /// The request.
        package var request: HTTPRequest
        /// The exchange that served it; `nil` when none matched (or the run was over).
        package var exchange: String?
        /// Virtual time when it was sent.
        package var at: Duration
        /// Its place among the events, counted from 1.
        package var order: Int
        /// Its answer; `nil` when none came back before the run ended.
        package var answer: Answer?

        package init(number: Int, request: HTTPRequest, exchange: String? = nil, at: Duration, order: Int, answer: Answer? = nil) {
            self.number = number
            self.request = request
            self.exchange = exchange
            self.at = at
            self.order = order
            self.answer = answer
        }
    }

    /// An action a step started.
    package struct Action: Sendable {
        /// The action's name.
        package var name: String
        /// How many events had happened when it began: the events after it have greater `order`s.
        package var began: Int
        /// How many when it ended; `nil` when it did not.
        package var ended: Int?
        /// How it ended.
        package var result: ActionResult?

        package init(name: String, began: Int, ended: Int?, result: ActionResult?) {
            self.name = name
            self.began = began
            self.ended = ended
            self.result = result
        }
    }

    /// Wall time at virtual time zero.
    package var clockStart: Date
    /// Everything that happened, in order.
    package private(set) var events: [RunEvent] = []
    /// Requests in the order sent: request `#n` is at `n - 1`.
    package private(set) var requests: [Request] = []
    /// Actions in the order started.
    package var actions: [Action] = []
    /// Alerts in the order shown (read for the invariants that need them).
    package var alerts: [JSONValue] = []
    /// The state timeline (likewise).
    package var timeline: [JSONValue] = []

    /// An empty record of a run whose virtual time zero is `clockStart`.
    package init(clockStart: Date = Scenario.defaultClockStart) {
        self.clockStart = clockStart
    }

    /// A record of requests alone, each with its answer (events made from them, in `order`).
    package init(
        clockStart: Date = Scenario.defaultClockStart, requests: [Request], actions: [Action] = [], alerts: [JSONValue] = [],
        timeline: [JSONValue] = []
    ) {
        self.clockStart = clockStart
        var happenings: [(order: Int, event: RunEvent)] = []
        for request in requests {
            happenings.append((request.order, RunEvent(number: request.number, at: request.at, exchange: request.exchange, kind: .sent)))
            if let answer = request.answer {
                happenings.append(
                    (answer.order, RunEvent(number: request.number, at: answer.at, exchange: request.exchange, kind: .answered)))
            }
        }
        events = happenings.sorted { $0.order < $1.order }.map(\.event)
        self.requests = requests
        self.actions = actions
        self.alerts = alerts
        self.timeline = timeline
    }

    /// How many events so far: the `order` of the last one.
    package var count: Int { events.count }

    // MARK: - Recording (by the run's backend, under its lock)

    /// Records that request `request` arrived at `at`, served by `exchange`; returns its number.
    package mutating func sent(_ request: HTTPRequest, exchange: String?, at: Duration) -> Int {
        let number = requests.count + 1
        requests.append(Request(number: number, request: request, exchange: exchange, at: at, order: events.count + 1))
        events.append(RunEvent(number: number, at: at, exchange: exchange, kind: .sent))
        return number
    }

    /// Records something about request `number` (0: about the run).
    package mutating func note(_ kind: RunEvent.Kind, number: Int, at: Duration) {
        let exchange = number >= 1 && number <= requests.count ? requests[number - 1].exchange : nil
        events.append(RunEvent(number: number, at: at, exchange: exchange, kind: kind))
    }

    /// Records the answer to request `number` as it reached the stack.
    package mutating func answered(_ number: Int, _ reply: Reply, at: Duration) {
        guard number >= 1, number <= requests.count else { return }
        switch reply {
        case .response(let response):
            requests[number - 1].answer = Answer(
                status: response.status.code, headers: response.headers, body: response.body, at: at, order: events.count + 1)
        case .fault(let code):
            requests[number - 1].answer = Answer(status: nil, fault: code.rawValue, at: at, order: events.count + 1)
        }
        note(.answered, number: number, at: at)
    }

    /// Records that request `number` ended for the stack without an answer (`.timedOut`,
    /// `.cancelledByApp`, `.refusedAfterEnd`): its caller got that fault.
    package mutating func gaveUp(_ number: Int, _ kind: RunEvent.Kind, at: Duration) {
        guard number >= 1, number <= requests.count else { return }
        let fault: TransportError.Code = if case .timedOut = kind { .timedOut } else { .cancelled }
        requests[number - 1].answer = Answer(status: nil, fault: fault.rawValue, at: at, order: events.count + 1)
        note(kind, number: number, at: at)
    }

    /// Why request `number` matched no exchange: the nearest exchanges and what differs.
    package func nearMiss(of number: Int) -> String {
        for event in events where event.number == number {
            if case .unmatched(let near) = event.kind { return near }
        }
        return ""
    }

    /// Request `number`, with its answer so far.
    package func request(_ number: Int) -> Request? {
        number >= 1 && number <= requests.count ? requests[number - 1] : nil
    }

    /// The answer to request `number` so far.
    package func answer(to number: Int) -> Answer? {
        number >= 1 && number <= requests.count ? requests[number - 1].answer : nil
    }
}

/// One way a run broke an invariant.
package struct InvariantViolation: Sendable, Hashable {
    /// The invariant's id.
    package var invariant: String
    /// What happened, naming requests by transcript number (`#3`).
    package var message: String
    /// The transcript numbers of the requests involved.
    package var requests: [Int]
    /// Values quoted in the message: they are masked like every secret.
    package var quoted: [String]

    /// Creates a violation.
    package init(invariant: String, message: String, requests: [Int] = [], quoted: [String] = []) {
        self.invariant = invariant
        self.message = message
        self.requests = requests
        self.quoted = quoted
    }
}
