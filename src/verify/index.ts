export { IpRangeSet, parseIpRanges, type IpRangeSetJSON, type ParsedIpRanges } from './ip-ranges.ts'
export { ipRangeListsOf, ipRangeLists, verifyClaim, type CfBotSignals, type VerificationRanges } from './verify.ts'
