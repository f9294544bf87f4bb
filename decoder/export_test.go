package decoder

// CheckTiling is checkTiling for the package's external tests.
var CheckTiling = checkTiling

// FirstConversationField is the first field of the frontend/backend protocol's messages.
const FirstConversationField = wireFieldsStart
