mod vectors;
mod wire;

fn main() {
    println!("{}", serde_json::to_string_pretty(&vectors::generate()).unwrap());
}
