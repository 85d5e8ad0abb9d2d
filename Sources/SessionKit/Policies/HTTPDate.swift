import Foundation

/// Parses the three HTTP-date forms RFC 9110 section 5.6.7 says a recipient must accept:
/// IMF-fixdate, the obsolete RFC 850 form and ANSI C's asctime form. All are in GMT.
///
/// Written by hand rather than with `DateFormatter` so the result never depends on the
/// device's locale, calendar or time zone settings.
public enum HTTPDate {
    /// The date a header value names, or `nil` when it is not an HTTP-date.
    /// - Parameter now: used only to place RFC 850's two-digit years.
    public static func parse(_ text: String, now: Date) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch parts.count {
        case imfFixdateFieldCount: return parseIMFFixdate(parts)
        case rfc850FieldCount: return parseRFC850(parts, now: now)
        case asctimeFieldCount: return parseAsctime(parts)
        default: return nil
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    private static func parseIMFFixdate(_ parts: [String]) -> Date? {
        guard parts[0].hasSuffix(","), shortWeekdays.contains(String(parts[0].dropLast())),
            parts[5] == "GMT", parts[1].count == 2, parts[3].count == 4,
            let day = Int(parts[1]), let month = monthNumber(parts[2]), let year = Int(parts[3])
        else { return nil }
        return makeDate(year: year, month: month, day: day, time: parts[4])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    private static func parseRFC850(_ parts: [String], now: Date) -> Date? {
        guard parts[0].hasSuffix(","), longWeekdays.contains(String(parts[0].dropLast())),
            parts[3] == "GMT"
        else { return nil }
        let dateFields = parts[1].split(separator: "-").map(String.init)
        guard dateFields.count == 3, dateFields[0].count == 2, dateFields[2].count == 2,
            let day = Int(dateFields[0]), let month = monthNumber(dateFields[1]),
            let shortYear = Int(dateFields[2])
        else { return nil }
        // RFC 9110: a two-digit year more than 50 years in the future means the past century.
        let currentYear = gmtCalendar.component(.year, from: now)
        let century = currentYear - currentYear % yearsPerCentury
        var year = century + shortYear
        if year > currentYear + twoDigitYearFutureWindow { year -= yearsPerCentury }
        return makeDate(year: year, month: month, day: day, time: parts[2])
    }

    /// `Sun Nov  6 08:49:37 1994`
    private static func parseAsctime(_ parts: [String]) -> Date? {
        guard shortWeekdays.contains(parts[0]), let month = monthNumber(parts[1]),
            (1...2).contains(parts[2].count), let day = Int(parts[2]),
            parts[4].count == 4, let year = Int(parts[4])
        else { return nil }
        return makeDate(year: year, month: month, day: day, time: parts[3])
    }

    private static func makeDate(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":").map(String.init)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute),
            // 60 allows a leap second, as the grammar does.
            (0...60).contains(second), (1...31).contains(day)
        else { return nil }
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard let date = gmtCalendar.date(from: components) else { return nil }
        // The calendar rolls 31 Feb over into March; such a date is malformed, not a date.
        guard gmtCalendar.component(.day, from: date) == day || second == leapSecond else {
            return nil
        }
        return date
    }

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }

    private static let imfFixdateFieldCount = 6
    private static let rfc850FieldCount = 4
    private static let asctimeFieldCount = 5
    private static let yearsPerCentury = 100
    private static let twoDigitYearFutureWindow = 50
    private static let leapSecond = 60
    private static let shortWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longWeekdays = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ]
    private static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    private static let gmtCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
