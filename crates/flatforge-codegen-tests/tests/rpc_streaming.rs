//! The trait generated for monster_test.fbs's `rpc_service MonsterStorage`, served through a toy
//! in-memory transport: a plain call (`Store`), a stream of responses (`Retrieve`, streaming:
//! server), a stream of requests (`GetMaxHitPoint`, client) and both (`GetMinMaxHitPoints`, bidi).

use ex::MonsterStorage;
use flatforge::{BuildError, Builder, Offset, SendResponse};
use flatforge_codegen_tests::flatbuffers_tests_monster_test::my_game::example as ex;

/// Serves each call from what it is given: nothing is stored between calls.
struct Storage;

fn stat(b: &mut Builder, val: i64, count: u16) -> Result<Offset<ex::Stat<'static>>, BuildError> {
    ex::Stat::create(
        b,
        &ex::StatArgs {
            id: None,
            val,
            count,
        },
    )
}

impl MonsterStorage for Storage {
    type Error = BuildError;

    fn store(
        &mut self,
        request: ex::Monster<'_>,
        response: &mut Builder,
    ) -> Result<Offset<ex::Stat<'static>>, BuildError> {
        stat(response, request.hp().into(), 1)
    }

    fn retrieve(
        &mut self,
        request: ex::Stat<'_>,
        response: &mut Builder,
        send: &mut SendResponse<'_, ex::Monster<'static>, BuildError>,
    ) -> Result<(), BuildError> {
        for n in 0..request.count() {
            let name = response.create_string(&format!("monster {n}"))?;
            let monster = ex::Monster::builder(response)
                .name(name)
                .hp(n as i16)
                .finish()?;
            send(response, monster)?;
        }
        Ok(())
    }

    fn get_max_hit_point(
        &mut self,
        requests: &mut dyn Iterator<Item = ex::Monster<'_>>,
        response: &mut Builder,
    ) -> Result<Offset<ex::Stat<'static>>, BuildError> {
        let (mut max, mut count) = (i64::MIN, 0);
        for monster in requests {
            max = max.max(monster.hp().into());
            count += 1;
        }
        stat(response, max, count)
    }

    fn get_min_max_hit_points(
        &mut self,
        requests: &mut dyn Iterator<Item = ex::Monster<'_>>,
        response: &mut Builder,
        send: &mut SendResponse<'_, ex::Stat<'static>, BuildError>,
    ) -> Result<(), BuildError> {
        let (mut min, mut max) = (i64::MAX, i64::MIN);
        for monster in requests {
            let hp = i64::from(monster.hp());
            (min, max) = (min.min(hp), max.max(hp));
            let low = stat(response, min, 0)?;
            send(response, low)?;
            let high = stat(response, max, 1)?;
            send(response, high)?;
        }
        Ok(())
    }
}

/// The toy transport's side of a server stream: finishes, "sends" (keeps) and clears each response.
fn collect<T>(
    sent: &mut Vec<Vec<u8>>,
) -> impl FnMut(&mut Builder, Offset<T>) -> Result<(), BuildError> + '_ {
    move |b, root| {
        sent.push(b.finish(root, None)?.to_vec());
        b.reset();
        Ok(())
    }
}

fn monster_bytes(name: &str, hp: i16) -> Vec<u8> {
    let mut b = Builder::new();
    let name = b.create_string(name).unwrap();
    let m = ex::Monster::builder(&mut b)
        .name(name)
        .hp(hp)
        .finish()
        .unwrap();
    b.finish(m, None).unwrap().to_vec()
}

#[test]
fn a_plain_call_answers_once() {
    let request = monster_bytes("orc", 80);
    let mut response = Builder::new();
    let root = Storage
        .store(flatforge::root(&request).unwrap(), &mut response)
        .unwrap();
    let bytes = response.finish(root, None).unwrap();
    let stat = flatforge::root::<ex::Stat>(bytes).unwrap();
    assert_eq!((stat.val(), stat.count()), (80, 1));
}

#[test]
fn a_server_stream_sends_each_response() {
    let mut b = Builder::new();
    let root = stat(&mut b, 0, 3).unwrap();
    let request = b.finish(root, None).unwrap().to_vec();
    let mut sent = Vec::new();
    Storage
        .retrieve(
            flatforge::root(&request).unwrap(),
            &mut Builder::new(),
            &mut collect(&mut sent),
        )
        .unwrap();
    let names: Vec<(&str, i16)> = sent
        .iter()
        .map(|bytes| {
            let m = flatforge::root::<ex::Monster>(bytes).unwrap();
            (m.name(), m.hp())
        })
        .collect();
    assert_eq!(
        names,
        [("monster 0", 0), ("monster 1", 1), ("monster 2", 2)]
    );
}

#[test]
fn a_client_stream_reads_every_request() {
    let requests = [("a", 5), ("b", 300), ("c", -2)].map(|(name, hp)| monster_bytes(name, hp));
    let mut views = requests
        .iter()
        .map(|r| flatforge::root::<ex::Monster>(r).unwrap());
    let mut response = Builder::new();
    let root = Storage
        .get_max_hit_point(&mut views, &mut response)
        .unwrap();
    let stat = flatforge::root::<ex::Stat>(response.finish(root, None).unwrap()).unwrap();
    assert_eq!((stat.val(), stat.count()), (300, 3));
}

#[test]
fn a_bidi_stream_answers_as_requests_come() {
    let requests = [7, 3, 9].map(|hp| monster_bytes("m", hp));
    let mut views = requests
        .iter()
        .map(|r| flatforge::root::<ex::Monster>(r).unwrap());
    let mut sent = Vec::new();
    Storage
        .get_min_max_hit_points(&mut views, &mut Builder::new(), &mut collect(&mut sent))
        .unwrap();
    let stats: Vec<(i64, u16)> = sent
        .iter()
        .map(|bytes| {
            let s = flatforge::root::<ex::Stat>(bytes).unwrap();
            (s.val(), s.count())
        })
        .collect();
    assert_eq!(stats, [(7, 0), (7, 1), (3, 0), (7, 1), (3, 0), (9, 1)]);
}
