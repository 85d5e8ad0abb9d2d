import Testing

@testable import ScenarioEngine

@Suite("GitHub annotations")
struct GitHubAnnotationsTests {
    @Test func onePerFailedAssertionAndPerError() {
        let lines = GitHubAnnotations.lines(for: Fixtures.run)
        #expect(lines.count == 3)
        #expect(
            lines[0].hasPrefix(
                "::error file=Scenarios/auth/refresh/coalesce.json,line=16,col=9,title=auth/refresh/coalesce%3A outcome of copy 3::outcome of copy 3: expected error forbidden, got a value"
            ))
        #expect(
            lines[1].hasPrefix("::error file=Scenarios/auth/refresh/coalesce.json,line=20,col=3,title=auth/refresh/coalesce%3A state::"))
        #expect(lines[1].contains("%0A"))
        #expect(lines[2].hasPrefix("::error file=Scenarios/broken.json,line=3,col=5,title=broken%3A error::"))
        for line in lines { #expect(!line.contains("\n") && !line.contains("\r")) }
    }

    @Test func escaping() {
        #expect(GitHubAnnotations.escapeData("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b")
        #expect(GitHubAnnotations.escapeProperty("a:b,c%\n") == "a%3Ab%2Cc%25%0A")
        #expect(
            GitHubAnnotations.annotation(file: "x,y.json", line: nil, column: nil, title: "t", message: "m")
                == "::error file=x%2Cy.json,title=t::m")
    }
}
