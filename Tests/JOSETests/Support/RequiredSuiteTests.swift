import JOSETestSupport
import Testing

/// The decision that keeps the PostgreSQL and browser suites from skipping in CI.
@Suite struct RequiredSuiteTests {
    static let missing = "no PostgreSQL: apt-get install postgresql"

    @Test func aSuiteWithItsPrerequisiteRunsEverywhere() {
        #expect(RequiredSuite.runs(missing: nil, environment: [:]))
        #expect(RequiredSuite.runs(missing: nil, environment: ["CI": "true"]))
    }

    @Test func aSuiteWithoutItsPrerequisiteSkipsOutsideCI() {
        for environment in [[:], ["CI": "false"], ["CI": ""], ["CI": "0"], ["GITHUB_ACTIONS": "true"]] {
            #expect(!RequiredSuite.runs(missing: Self.missing, environment: environment), "\(environment)")
        }
    }

    @Test func aSuiteWithoutItsPrerequisiteRunsAndFailsUnderCI() {
        for value in ["true", "TRUE", "True", "1"] {
            #expect(RequiredSuite.runs(missing: Self.missing, environment: ["CI": value]), "\(value)")
        }
        let failure = RequiredSuite.failure(Self.missing)
        #expect(failure.description.contains("CI=true") && failure.description.hasSuffix(Self.missing))
    }
}
