wanted = args[0] || "deploy_service"
had_failure = false
(context[:conversation_history] || []).each do |entry|
  next unless entry[:method_name] == wanted
  oc = entry[:outcome_summary]
  next if oc.nil?
  if oc[:ok] == false
    had_failure = true
    break
  end
end
result = had_failure
