import Foundation
import ScenarioKit
import SessionKit

/// What `given` says, read into SessionKit's types; a shape it cannot use is a clear error.
struct GivenState {
    var tokens: SessionTokens?
    var record = SessionRecord.empty
    var online = true
    var healthPollInterval = SessionEnvironment.defaultHealthPollInterval
    var resetCooldown = SessionEnvironment.defaultResetCooldown
    var verificationCountdown = SessionEnvironment.defaultVerificationCountdown

    /// A `given` value the driver cannot start from.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    init(_ given: ScenarioKit.JSONValue) throws {
        if let session = given["session"] {
            guard let access = session["accessToken"]?.stringValue else {
                throw Problem(description: "given.session needs a string 'accessToken' (and usually 'refreshToken' and 'user')")
            }
            tokens = SessionTokens(accessToken: access, refreshToken: session["refreshToken"]?.stringValue)
            if let user = session["user"] {
                guard let id = user["id"]?.stringValue else { throw Problem(description: "given.session.user needs a string 'id'") }
                record.user = SessionUser(
                    id: id, name: user["name"]?.stringValue ?? "", email: user["email"]?.stringValue ?? "",
                    active: user["active"]?.boolValue ?? true)
            }
        }
        if let preferences = given["preferences"]?.objectValue {
            for (key, value) in preferences {
                guard let string = value.stringValue else { throw Problem(description: "given.preferences.\(key) must be a string") }
                record.preferences[key] = string
            }
        }
        online = given["connectivity"]?.stringValue != "offline"
        if let config = given["config"] {
            healthPollInterval = try Self.duration(config["healthPollInterval"], "healthPollInterval") ?? healthPollInterval
            resetCooldown = try Self.duration(config["resetCooldown"], "resetCooldown") ?? resetCooldown
            if let countdown = config["verificationCountdown"] {
                guard let seconds = countdown.intValue, seconds > 0 else {
                    throw Problem(description: "given.config.verificationCountdown must be a whole number of seconds > 0")
                }
                verificationCountdown = seconds
            }
        }
    }

    private static func duration(_ value: ScenarioKit.JSONValue?, _ name: String) throws -> Duration? {
        guard let value else { return nil }
        // Zero would let a polling loop spin without time passing.
        guard let text = value.stringValue, let duration = try? Duration(scenarioText: text), duration > .zero else {
            throw Problem(description: "given.config.\(name) must be a duration above zero, such as \"15s\"")
        }
        return duration
    }
}
