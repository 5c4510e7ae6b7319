package io.pushline.dispatch;

import io.pushline.dispatch.gate.GateOperator;
import io.pushline.dispatch.gate.RulesUpdates;
import io.pushline.schema.Decision;
import io.pushline.schema.dispatch.DevicePush;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The per-device gate: every (request, device) decided by the rules in force (keyed by deviceId,
 * rules documents checked and broadcast as they arrive). Sends leave on {@code SENDS}.
 *
 * @param decided the gate's decisions (its sends on a side output)
 * @param rules the checked rules documents, which the pacer also reads its rates from
 */
record GateStage(
        SingleOutputStreamOperator<Decision> decided, SingleOutputStreamOperator<String> rules) {

    static GateStage wire(
            DataStream<DevicePush> devices,
            DataStream<String> rulesUpdates,
            GateSettings gate,
            int maxParallelism) {
        SingleOutputStreamOperator<String> rules =
                rulesUpdates
                        .process(new RulesUpdates(gate.stateTtl))
                        .uid("rules-check")
                        .name("Check rules")
                        .setParallelism(1);
        SingleOutputStreamOperator<Decision> decided =
                devices.keyBy(d -> d.device.deviceId)
                        .connect(rules.broadcast())
                        .transform(
                                "Gate",
                                TypeInformation.of(Decision.class),
                                new GateOperator(gate.rules, gate.stateTtl))
                        .uid("gate")
                        .setMaxParallelism(maxParallelism);
        return new GateStage(decided, rules);
    }
}
