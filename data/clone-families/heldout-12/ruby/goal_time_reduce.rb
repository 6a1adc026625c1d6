require "time"

history = context[:conversation_history] || []
pairs = history.each_cons(2).reject { |first, _| first[:goal].nil? || first[:goal] == "" }
per_goal = pairs.each_with_object({}) do |(first, second), acc|
  acc[first[:goal]] ||= { seconds: 0, gaps: 0 }
  acc[first[:goal]][:seconds] += (Time.parse(second[:timestamp]) - Time.parse(first[:timestamp])).round
  acc[first[:goal]][:gaps] += 1
end
Agent::Outcome.ok(per_goal)
