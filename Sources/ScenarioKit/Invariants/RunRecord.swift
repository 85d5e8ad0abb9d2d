import Foundation
import HTTPCore

/// What a run did, as invariants see it: every request with its virtual time and answer, the
/// actions with where they began and ended, the alerts and the timeline. Positions (`order`)
/// count requests sent and answers delivered together, so "before" and "after" are exact even
/// when many things happen at one virtual instant.
public struct RunRecord: Sendable {
    /// An answer as it reached the stack.
    public struct Answer: Sendable {
        /// The status; `nil` for a transport fault.
        public var status: Int?
        /// Its header fields.
        public var headers: HTTPFields
        /// Its body.
        public var body: Data
        /// The fault's name, for a transport fault.
        public var fault: String?
        /// Virtual time when it was delivered.
        public var at: Duration
        /// Its position among sends and answers.
        public var order: Int

        /// Creates an answer.
        public init(status: Int?, headers: HTTPFields = [:], body: Data = Data(), fault: String? = nil, at: Duration, order: Int) {
            self.status = status
            self.headers = headers
            self.body = body
            self.fault = fault
            self.at = at
            self.order = order
        }
    }

    /// A request the stack sent, with its answer when one came back.
    public struct Request: Sendable {
        /// Its number in the transcript (`#3`).
        public var number: Int
        /// The request.
        public var request: HTTPRequest
        /// Virtual time when it was sent.
        public var at: Duration
        /// Its position among sends and answers.
        public var order: Int
        /// Its answer; `nil` when none came back before the run ended.
        public var answer: Answer?

        /// Creates a request.
        public init(number: Int, request: HTTPRequest, at: Duration, order: Int, answer: Answer? = nil) {
            self.number = number
            self.request = request
            self.at = at
            self.order = order
            self.answer = answer
        }
    }

    /// An action a step started.
    public struct Action: Sendable {
        /// The action's name.
        public var name: String
        /// How many sends and answers had happened when it began.
        public var began: Int
        /// How many when it ended; `nil` when it did not.
        public var ended: Int?
        /// How it ended.
        public var result: ActionResult?

        /// Creates an action.
        public init(name: String, began: Int, ended: Int?, result: ActionResult?) {
            self.name = name
            self.began = began
            self.ended = ended
            self.result = result
        }
    }

    /// Wall time at virtual time zero.
    public var clockStart: Date
    /// Requests in the order sent.
    public var requests: [Request]
    /// Actions in the order started.
    public var actions: [Action]
    /// Alerts in the order shown.
    public var alerts: [JSONValue]
    /// The state timeline.
    public var timeline: [JSONValue]

    /// Creates a record.
    public init(
        clockStart: Date = Scenario.defaultClockStart, requests: [Request] = [], actions: [Action] = [], alerts: [JSONValue] = [],
        timeline: [JSONValue] = []
    ) {
        self.clockStart = clockStart
        self.requests = requests
        self.actions = actions
        self.alerts = alerts
        self.timeline = timeline
    }
}

/// One way a run broke an invariant.
public struct InvariantViolation: Sendable, Hashable {
    /// The invariant's id.
    public var invariant: String
    /// What happened, naming requests by transcript number (`#3`).
    public var message: String
    /// The transcript numbers of the requests involved.
    public var requests: [Int]
    /// Values quoted in the message: they are masked like every secret.
    public var quoted: [String]

    /// Creates a violation.
    public init(invariant: String, message: String, requests: [Int] = [], quoted: [String] = []) {
        self.invariant = invariant
        self.message = message
        self.requests = requests
        self.quoted = quoted
    }
}
