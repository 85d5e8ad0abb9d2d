import Foundation
import ScenarioEngine
import ScenarioTraces

/// Pact matching rules: a type matcher at every leaf of a body and at every array (`min: 0`), so
/// a provider may answer other values of the same types, and more members than scripted; a
/// header whose value varies by nature (`Content-Type`'s parameters, `Retry-After`'s seconds or
/// date) by a regular expression of what it may be.
enum PactMatchers {
    static func rule(_ matcher: JSONValue) -> JSONValue {
        ["combine": "AND", "matchers": [matcher]]
    }

    static func regex(_ expression: String) -> JSONValue {
        rule(["match": "regex", "regex": .string(expression)])
    }

    static func typeRules(for value: JSONValue) -> JSONObject {
        var rules = JSONObject()
        collect(value, path: "$", into: &rules)
        return rules
    }

    private static func collect(_ value: JSONValue, path: String, into rules: inout JSONObject) {
        switch value {
        case .object(let object):
            for (key, member) in object { collect(member, path: path + segment(key), into: &rules) }
        case .array(let elements):
            rules[path] = rule(["match": "type", "min": 0])
            for element in elements { collect(element, path: path + "[*]", into: &rules) }
        default:
            if rules[path] == nil { rules[path] = rule(["match": "type"]) }
        }
    }

    /// `.name` for a plain key, `['odd key']` otherwise, as Pact's JSON paths write them.
    static func segment(_ key: String) -> String {
        let plain =
            !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }
            && !(key.first?.isNumber ?? true)
        return plain ? "." + key : "['" + key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "']"
    }

    /// RFC 9110's `Retry-After`: delta-seconds or an HTTP-date (IMF-fixdate, RFC 850, asctime).
    static let retryAfter =
        #"^(\d+|(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]+day, \d{2}-[A-Z][a-z]{2}-\d{2} \d{2}:\d{2}:\d{2} GMT|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})$"#

    /// The rules for an answer's headers: the media type's essence with any parameters (a JSON
    /// type's `+json` relatives too), and `Retry-After` in any of its forms. Others are exact.
    static func headerRules(_ headers: [HARLog.Field]) -> JSONObject {
        var rules = JSONObject()
        for field in headers {
            switch field.name.lowercased() {
            case "content-type":
                let essence = MediaTypes.essence(field.value)
                if MediaTypes.isJSON(essence) {
                    rules[field.name] = regex(#"^application/(.+\+)?json(\s*;.*)?$"#)
                } else if !essence.isEmpty {
                    rules[field.name] = regex("^" + NSRegularExpression.escapedPattern(for: essence) + #"(\s*;.*)?$"#)
                }
            case "retry-after":
                rules[field.name] = regex(retryAfter)
            default:
                continue
            }
        }
        return rules
    }
}
