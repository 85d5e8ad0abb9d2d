import Foundation
import Testing

@testable import SessionKit

@Suite("Retry-After parsing")
struct RetryAfterTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // Fri, 15 Jan 2027 08:00:00 GMT

    @Test("delta-seconds", arguments: [("120", 120), ("0", 0), (" 7 ", 7), ("3600", 3600)])
    func deltaSeconds(value: String, seconds: Int) {
        #expect(RetryAfter.parse(value, now: Self.now) == .seconds(seconds))
    }

    @Test(
        "HTTP-date in every form RFC 9110 accepts, two hours ahead",
        arguments: [
            "Fri, 15 Jan 2027 10:00:00 GMT",  // IMF-fixdate
            "Friday, 15-Jan-27 10:00:00 GMT",  // RFC 850
            "Fri Jan 15 10:00:00 2027",  // asctime
        ])
    func httpDate(value: String) {
        #expect(RetryAfter.parse(value, now: Self.now) == .seconds(7200))
    }

    @Test("asctime pads single-digit days with a space")
    func asctimeSingleDigitDay() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.parse("Sun Nov  6 08:49:47 1994", now: now) == .seconds(10))
    }

    @Test("a date in the past means now")
    func pastDate() {
        #expect(RetryAfter.parse("Fri, 15 Jan 2027 07:59:00 GMT", now: Self.now) == .zero)
    }

    @Test(
        "garbage gives nil",
        arguments: [
            "", "   ", "soon", "-5", "12abc", "1.5", "Fri, 15 Foo 2027 10:00:00 GMT",
            "Fri, 31 Feb 2027 10:00:00 GMT", "Fri, 15 Jan 2027 25:00:00 GMT", "Fri, 15 Jan 2027 10:00:00 PST",
        ])
    func garbage(value: String) {
        #expect(RetryAfter.parse(value, now: Self.now) == nil)
    }

    @Test("no header gives nil")
    func missing() {
        #expect(RetryAfter.parse(nil, now: Self.now) == nil)
    }
}
