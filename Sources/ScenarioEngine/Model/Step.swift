import Foundation

/// One thing the scenario does.
package struct Step: Sendable {
    /// An optional name, for `release.atStep` and for reports.
    package var name: String?
    /// What the step does.
    package var kind: Kind
    /// Where the step is declared.
    package var location: ScenarioLocation

    /// Creates a step.
    package init(name: String? = nil, kind: Kind, location: ScenarioLocation) {
        self.name = name
        self.kind = kind
        self.location = location
    }

    /// The kinds of step.
    package enum Kind: Sendable {
        /// Run one action (or the same one `parallel` times at once) and wait for it, advancing
        /// virtual time as far as the action needs.
        case perform(ActionCall, parallel: Int, expect: Outcome?)
        /// Run different actions at once and wait for all.
        case group([ActionCall], expects: [Outcome?])
        /// Start an action in the background under a handle, without waiting.
        case start(ActionCall, handle: String)
        /// Wait for a background action and check its outcome.
        case await(handle: String, expect: Outcome?)
        /// Advance virtual time, waking sleepers in deadline order.
        case advance(Duration)
        /// Let the app run until nothing is runnable, without moving time.
        case runUntilIdle
        /// Check expectations at this point.
        case check(Expectations)
    }
}

/// A named driver action with arguments.
package struct ActionCall: Sendable {
    /// The action's name, as the driver lists it.
    package var action: String
    /// Its arguments (an object).
    package var arguments: JSONValue
    /// Where the call is written.
    package var location: ScenarioLocation

    /// Creates a call.
    package init(action: String, arguments: JSONValue = .object([:]), location: ScenarioLocation) {
        self.action = action
        self.arguments = arguments
        self.location = location
    }
}

/// What an action must have returned.
package enum Outcome: Sendable, Hashable {
    /// Success with any value.
    case ok
    /// Success with a value containing this (subset match).
    case value(JSONValue)
    /// Failure whose error contains this (a string means the error's `code`).
    case error(JSONValue)
}
