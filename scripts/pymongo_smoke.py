"""A second real client against Mayfly: Debian's python3-pymongo (3.11) does a handshake over
OP_QUERY, then insert/find/update/delete over OP_MSG, and checks that a float stays a float.

Usage: /usr/bin/python3 scripts/pymongo_smoke.py mongodb://127.0.0.1:27017/
Prints one line per step and exits non-zero on the first failure.
"""
import sys

import pymongo
from bson.int64 import Int64

uri = sys.argv[1]
client = pymongo.MongoClient(uri, serverSelectionTimeoutMS=5000)
print("server version", client.server_info()["version"])
db = client["pymongo_smoke"]
coll = db["people"]
coll.drop()

result = coll.insert_many([{"_id": 1, "name": "ada", "score": 1.0}, {"_id": 2, "name": "bob", "n": Int64(5)}])
assert result.inserted_ids == [1, 2], result.inserted_ids
print("insert ok")

doc = coll.find_one({"_id": 1})
assert doc == {"_id": 1, "name": "ada", "score": 1.0}, doc
assert isinstance(doc["score"], float), type(doc["score"])
assert isinstance(coll.find_one({"_id": 2})["n"], Int64)
print("find ok (float stays float, Int64 stays Int64)")

res = coll.update_one({"_id": 2}, {"$set": {"name": "bobby"}, "$inc": {"n": 1}})
assert (res.matched_count, res.modified_count) == (1, 1), res.raw_result
assert coll.find_one({"_id": 2}) == {"_id": 2, "name": "bobby", "n": 6}
print("update ok")

res = coll.delete_one({"_id": 1})
assert res.deleted_count == 1
assert coll.count_documents({}) == 1
print("delete ok")

try:
    coll.insert_one({"_id": 2})
    raise AssertionError("duplicate key accepted")
except pymongo.errors.DuplicateKeyError as err:
    assert err.code == 11000, err.details
print("duplicate key ok")

db.command("dropDatabase")
print("pymongo smoke passed")
